import { zodResolver } from '@hookform/resolvers/zod';
import { microsoftSignInSettingsBody } from '@shared/schemas/microsoft-sign-in';

// The shared rules; values are sent as typed and the server applies the same schema. Loaded when
// the form is first used (rulesOnDemand, ADR 69).
export const microsoftSignInResolver = zodResolver(microsoftSignInSettingsBody, undefined, { raw: true });
