import { zodResolver } from '@hookform/resolvers/zod';
import { reminderSettingsBody } from '@shared/schemas/reminders';
import { z } from 'zod';
import { toBody } from './email-form-values';

// The shared rules on the numbers the form will send; the server applies the same schema. Loaded
// when the form is first used (rulesOnDemand, ADR 69).
export const emailSettingsResolver = zodResolver(z.preprocess(toBody, reminderSettingsBody), undefined, {
  raw: true,
});
