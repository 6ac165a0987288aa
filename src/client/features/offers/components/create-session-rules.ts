import { zodResolver } from '@hookform/resolvers/zod';
import { type CreateSessionInput, createSessionBody } from '@shared/schemas/offers';
import type { Resolver } from 'react-hook-form';

// The new-session form's rules: the body's own (the server applies the same schema), the values sent
// as typed. Loaded when the form is first used (rulesOnDemand, ADR 69).
export const createSessionResolver: Resolver<CreateSessionInput> = zodResolver(createSessionBody, undefined, {
  raw: true,
});
