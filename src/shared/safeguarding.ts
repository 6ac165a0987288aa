/**
 * Safeguarding status: whether a facilitator's checks count on a given day under the organisation's
 * policy. Pure (records, policy and a calendar day in, status out), so the server, the exports, the
 * scheduler and any later feature (offers) all decide the same way. Design:
 * docs/decisions/0021-safeguarding-records.md.
 */
import { addDays, addMonths, MONTH_NAMES, parseDateString } from './calendar';

export const SAFEGUARDING_STATES = ['valid', 'expiring', 'expired', 'missing'] as const;
export type SafeguardingState = (typeof SAFEGUARDING_STATES)[number];

/** Worst first: the state a person shows is the worst of their checks. */
const SEVERITY: Record<SafeguardingState, number> = { missing: 3, expired: 2, expiring: 1, valid: 0 };

export const SAFEGUARDING_STATE_LABELS: Record<SafeguardingState, string> = {
  valid: 'Checks valid',
  expiring: 'Expiring soon',
  expired: 'Expired',
  missing: 'Missing',
};

export interface SafeguardingPolicy {
  /** how long a DBS check counts from its issue date when the person is not on the Update Service */
  dbsMonths: number;
  /** how long it counts from the last Update Service status check (or the issue date before one) */
  updateServiceMonths: number;
  /** a check shows "expiring soon" from this many days before the day it stops counting */
  warningDays: number;
  /** the organisation's other checks (insurance, first aid ...), each required of every facilitator */
  checkTypes: string[];
}

/** Defaults, explained in the ADR: three years, one year from the last status check, 30 days' warning. */
export const DEFAULT_SAFEGUARDING_POLICY: SafeguardingPolicy = {
  dbsMonths: 36,
  updateServiceMonths: 12,
  warningDays: 30,
  checkTypes: [],
};

export interface DbsRecord {
  certificateNumber: string;
  issueDate: string;
  /** an enhanced check that included the children's barred list: anything less does not count */
  enhancedWithBarredList: boolean;
  onUpdateService: boolean;
  /** the last Update Service status check; null when none was made */
  statusCheckedOn: string | null;
  /** who checked the certificate */
  checkedBy: string;
}

export interface OtherCheckRecord {
  /** one of the policy's check types, by name */
  type: string;
  /** the last day the check counts (the expiry or recheck date) */
  validUntil: string;
}

export interface SafeguardingRecords {
  dbs: DbsRecord | null;
  checks: OtherCheckRecord[];
}

export interface CheckStatus {
  /** 'DBS' or a check type's name */
  name: string;
  state: SafeguardingState;
  /** the last day it counts; null when missing */
  validUntil: string | null;
  /** what a person reads: "DBS check valid until 27 February 2027" */
  message: string;
}

export interface SafeguardingStatus {
  state: SafeguardingState;
  checks: CheckStatus[];
  /** the messages of the checks that are not valid, worst first */
  reasons: string[];
}

export const DBS_CHECK_NAME = 'DBS';

/** "27 February 2027": no time zone involved, the date is already the organisation's. */
export function dayLabel(date: string): string {
  const { year, month, day } = parseDateString(date);
  return `${day} ${MONTH_NAMES[month - 1]} ${year}`;
}

/**
 * The last day a DBS check counts. Months are added as the calendar has them, and a day the target
 * month lacks becomes its last day (29 February + 12 months is 28 February); the check then counts
 * up to the day before that anniversary, so it never counts longer than the policy says.
 */
export function dbsValidUntil(dbs: DbsRecord, policy: SafeguardingPolicy, date: string): string {
  // a status check made after the day asked about says nothing about that day
  const statusCheck = dbs.onUpdateService && dbs.statusCheckedOn && dbs.statusCheckedOn <= date;
  const from = statusCheck ? dbs.statusCheckedOn! : dbs.issueDate;
  const months = dbs.onUpdateService ? policy.updateServiceMonths : policy.dbsMonths;
  return addDays(addMonths(from, months), -1);
}

function stateOn(validUntil: string, policy: SafeguardingPolicy, date: string): SafeguardingState {
  if (date > validUntil) return 'expired';
  // the warning starts `warningDays` days before the first day the check no longer counts
  if (date >= addDays(validUntil, 1 - policy.warningDays)) return 'expiring';
  return 'valid';
}

function timedMessage(name: string, state: SafeguardingState, validUntil: string): string {
  const until = dayLabel(validUntil);
  if (state === 'expired') return `${name} expired: it counted until ${until}`;
  if (state === 'expiring') return `${name} due soon: valid until ${until}`;
  return `${name} valid until ${until}`;
}

function dbsStatus(dbs: DbsRecord | null, policy: SafeguardingPolicy, date: string): CheckStatus {
  const name = `${DBS_CHECK_NAME} check`;
  const missing = (message: string): CheckStatus => ({
    name: DBS_CHECK_NAME,
    state: 'missing',
    validUntil: null,
    message,
  });
  if (!dbs) return missing('No DBS check recorded');
  if (!dbs.enhancedWithBarredList)
    return missing('DBS check is not an enhanced check with the barred list, so it does not count');
  if (dbs.issueDate > date) return missing(`DBS certificate issued after ${dayLabel(date)}`);
  const validUntil = dbsValidUntil(dbs, policy, date);
  const state = stateOn(validUntil, policy, date);
  return { name: DBS_CHECK_NAME, state, validUntil, message: timedMessage(name, state, validUntil) };
}

/**
 * The status of one facilitator's checks on `date` (a `yyyy-MM-dd` day in the organisation's time
 * zone): the DBS check and each check type the policy requires. Records of check types the policy no
 * longer has are ignored.
 */
export function safeguardingStatus(
  records: SafeguardingRecords,
  policy: SafeguardingPolicy,
  date: string,
): SafeguardingStatus {
  const checks: CheckStatus[] = [dbsStatus(records.dbs, policy, date)];
  for (const type of policy.checkTypes) {
    const key = checkTypeKey(type);
    const record = records.checks.find((check) => checkTypeKey(check.type) === key);
    if (!record) {
      checks.push({ name: type, state: 'missing', validUntil: null, message: `No ${type} recorded` });
      continue;
    }
    const state = stateOn(record.validUntil, policy, date);
    checks.push({
      name: type,
      state,
      validUntil: record.validUntil,
      message: timedMessage(type, state, record.validUntil),
    });
  }
  const state = checks.reduce<SafeguardingState>(
    (worst, check) => (SEVERITY[check.state] > SEVERITY[worst] ? check.state : worst),
    'valid',
  );
  const reasons = checks
    .filter((check) => check.state !== 'valid')
    .sort((a, b) => SEVERITY[b.state] - SEVERITY[a.state])
    .map((check) => check.message);
  return { state, checks, reasons };
}

/** Expired and missing checks keep a person from being sent; expiring ones only warn. */
export function mayBeSent(state: SafeguardingState): boolean {
  return state === 'valid' || state === 'expiring';
}

/** Check types are matched without regard to case or outer spaces. */
export function checkTypeKey(name: string): string {
  return name.trim().toLowerCase();
}

/** A certificate number as lists, exports and the history show it: its last four digits only. */
export function maskCertificate(certificateNumber: string): string {
  const digits = certificateNumber.replace(/\s/g, '');
  if (digits.length <= 4) return '*'.repeat(digits.length);
  return `${'*'.repeat(digits.length - 4)}${digits.slice(-4)}`;
}
