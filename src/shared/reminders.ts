// The email settings' choices and defaults, which the settings page draws before its form's rules
// have loaded (ADR 69). They are kept apart from the reminders schema for the same reason as
// ./availability.ts: importing one constant from a schema module brings zod and every schema the
// module builds into the page's file. The schema module re-exports these for the server.

export const SMTP_SECURITY = ['none', 'starttls', 'tls'] as const;
export type SmtpSecurity = (typeof SMTP_SECURITY)[number];
/** The port each mode usually listens on, offered when the mode changes. */
export const DEFAULT_SMTP_PORTS: Record<SmtpSecurity, number> = { none: 25, starttls: 587, tls: 465 };

/** Which month the automatic reminder is about, seen from the day it runs. */
export const AUTO_MONTHS = ['next', 'current'] as const;
export type AutoMonth = (typeof AUTO_MONTHS)[number];

/** The automatic reminder goes out on its day from this hour (ORG_TIMEZONE), not at midnight. */
export const AUTO_REMINDER_HOUR = 9;
