import { zodResolver } from '@hookform/resolvers/zod';
import { changePasswordForm } from '@shared/schemas/auth';

// The shared rules, including "must differ from current" overriding the other new-password
// messages. Loaded when the form is first used (rulesOnDemand, ADR 69).
export const changePasswordResolver = zodResolver(changePasswordForm);
