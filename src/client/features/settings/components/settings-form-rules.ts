import { zodResolver } from '@hookform/resolvers/zod';
import { settingsBody } from '@shared/schemas/settings';

// The shared rules; values are sent as typed (raw), the server applies the same
// schema. The form always holds every field, so the optional ones are required here; the column
// mapping is held beside the form and added when it is sent. Loaded when the form is first used
// (rulesOnDemand, ADR 69).
export const settingsFormResolver = zodResolver(
  settingsBody.omit({ columnMapping: true }).required(),
  undefined,
  { raw: true },
);
