import { zodResolver } from '@hookform/resolvers/zod';
import { forgotPasswordBody, setPasswordForm } from '@shared/schemas/auth';

// The shared rules of the two forms, loaded when a form is first used (rulesOnDemand, ADR 69).
export const forgotPasswordResolver = zodResolver(forgotPasswordBody);
export const setPasswordResolver = zodResolver(setPasswordForm);
