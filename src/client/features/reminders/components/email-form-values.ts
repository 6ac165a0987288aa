import type { AutoMonth, SmtpSecurity } from '@shared/reminders';

/** Every field as the email settings form edits it; numbers as text until sent. The password starts blank. */
export interface EmailFormValues {
  host: string;
  port: string;
  security: SmtpSecurity;
  username: string;
  password: string;
  fromAddress: string;
  autoEnabled: boolean;
  autoDay: string;
  autoMonth: AutoMonth;
}

/** The body the form sends: the numbers as numbers (a blank port is not a number). */
export const toBody = (values: EmailFormValues) => ({
  ...values,
  port: values.port.trim() === '' ? Number.NaN : Number(values.port),
  autoDay: Number(values.autoDay),
});
