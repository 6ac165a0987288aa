/*
 * Kept apart from the limiter so configuration can name budgets without loading the database layer.
 */

/**
 * Request budgets: how many requests (or, for `dayWrites`, how many availability days) one caller may
 * spend in a fixed window. Counters live in PostgreSQL so every instance on the database spends from
 * the same budget. Each route names its budget in its config, next to `access`; a state-changing
 * route that names none spends from `write`.
 */
export interface Budget {
  max: number;
  windowMs: number;
  /** whose budget: the signed-in user's (the address when nobody is signed in), or the address's */
  per: 'user' | 'address';
}

export const DEFAULT_BUDGETS = {
  /** every state-changing request without a budget of its own */
  write: { max: 1200, windowMs: 60_000, per: 'user' },
  /** availability days written by bulk updates and patterns (an 800-day bulk update spends 800) */
  dayWrites: { max: 4000, windowMs: 10 * 60_000, per: 'user' },
  availabilityBulk: { max: 300, windowMs: 60_000, per: 'user' },
  pattern: { max: 300, windowMs: 60_000, per: 'user' },
  syncAll: { max: 10, windowMs: 60_000, per: 'user' },
  export: { max: 120, windowMs: 60_000, per: 'user' },
  staffExport: { max: 120, windowMs: 60_000, per: 'user' },
  /** the safeguarding record for schools: bookings of up to a year joined with everyone's checks */
  safeguardingExport: { max: 60, windowMs: 60_000, per: 'user' },
  /** subject access archives: everything about one person, zipped */
  subjectAccess: { max: 20, windowMs: 60_000, per: 'user' },
  /** photo uploads: each one decoded and re-encoded */
  photoUpload: { max: 30, windowMs: 60_000, per: 'user' },
  remindersSend: { max: 10, windowMs: 10 * 60_000, per: 'user' },
  bookingsRefresh: { max: 20, windowMs: 60_000, per: 'user' },
  testConnection: { max: 20, windowMs: 60_000, per: 'user' },
  /** sessions created in SharePoint by staff */
  sessionCreate: { max: 60, windowMs: 60_000, per: 'user' },
  /** offers sent (each request may email up to 50 facilitators) */
  offers: { max: 60, windowMs: 60_000, per: 'user' },
  offerWithdraw: { max: 120, windowMs: 60_000, per: 'user' },
  /** a facilitator's answers to offers, and marking them seen */
  offerAnswers: { max: 300, windowMs: 60_000, per: 'user' },
  /**
   * reading and answering through an email link: nobody is signed in, so per address; a link cannot
   * be guessed (an HMAC), so the budget only bounds the work one address can cause
   */
  offerLinks: { max: 300, windowMs: 60_000, per: 'address' },
  /** sign-in requests of any outcome (failures have their own stricter limits, auth/throttle.ts) */
  login: { max: 300, windowMs: 60_000, per: 'address' },
  register: { max: 10, windowMs: 60 * 60_000, per: 'address' },
  /** asking for a password reset link (each account also gets at most three an hour, whoever asks) */
  passwordReset: { max: 10, windowMs: 60 * 60_000, per: 'address' },
  /** invitations to set a password, sent by staff (each one an email) */
  passwordInvitations: { max: 60, windowMs: 10 * 60_000, per: 'user' },
  /** reading and using a link that sets a password: a token cannot be guessed, this bounds the work */
  passwordLinks: { max: 60, windowMs: 10 * 60_000, per: 'address' },
  /** adding passkeys (each a ceremony with the browser) */
  passkeys: { max: 30, windowMs: 10 * 60_000, per: 'user' },
  /** calendar applications poll; many people behind one office address share this */
  calendarFeed: { max: 600, windowMs: 60_000, per: 'address' },
  /** SharePoint's change notifications (anonymous by nature: the clientState is the credential) */
  sharePointNotifications: { max: 120, windowMs: 60_000, per: 'address' },
} satisfies Record<string, Budget>;

export type BudgetName = keyof typeof DEFAULT_BUDGETS;
export type Budgets = Record<BudgetName, Budget>;

/**
 * `REQUEST_BUDGETS`: a comma list of `name=max` that replaces the default maximum of those budgets
 * (their windows stay), e.g. `dayWrites=20000,export=500` for an organisation that imports in bulk.
 */
export function parseBudgetOverrides(text: string): Partial<Budgets> | { error: string } {
  const overrides: Partial<Budgets> = {};
  for (const entry of text.split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    const match = /^([A-Za-z]+)\s*=\s*(\d{1,9})$/.exec(entry);
    if (!match) return { error: `"${entry}" is not name=number (such as dayWrites=20000)` };
    const [, name, max] = match as unknown as [string, string, string];
    if (!Object.hasOwn(DEFAULT_BUDGETS, name))
      return { error: `"${name}" is not a budget (one of ${Object.keys(DEFAULT_BUDGETS).join(', ')})` };
    const budget = DEFAULT_BUDGETS[name as BudgetName];
    overrides[name as BudgetName] = { ...budget, max: Number(max) };
  }
  return overrides;
}
