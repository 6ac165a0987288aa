import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { AppError } from '../errors';

function fieldErrorsFrom(issues: { path: PropertyKey[] | string; message: string }[]) {
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = (Array.isArray(issue.path) ? issue.path.map(String).join('.') : issue.path) || '_';
    fieldErrors[key] = [...(fieldErrors[key] ?? []), issue.message];
  }
  return fieldErrors;
}

/**
 * One shape for every error: `{ message, fieldErrors? }`. Messages of expected errors are for people;
 * anything unexpected is logged and answered with a bare 500 so internals never leak.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | ZodError, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      return reply.code(error.status).send({ message: error.message, fieldErrors: error.fieldErrors });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => ({
        path: v.instancePath.replace(/^\//, '').replaceAll('/', '.'),
        message: v.message ?? 'Invalid value',
      }));
      const first = issues[0]!;
      const message = first.path ? `${first.path}: ${first.message}` : first.message;
      return reply.code(400).send({ message, fieldErrors: fieldErrorsFrom(issues) });
    }
    if (error instanceof ZodError) {
      const first = error.issues[0];
      return reply
        .code(400)
        .send({ message: first?.message ?? 'Invalid input', fieldErrors: fieldErrorsFrom(error.issues) });
    }
    const status = (error as FastifyError).statusCode ?? 500;
    if (status === 413) return reply.code(413).send({ message: 'The request is too large' });
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, wrong content type): safe, generic wording.
      const message =
        (error as FastifyError).code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? 'Unsupported content type'
          : 'The request could not be read';
      return reply.code(status).send({ message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ message: 'Something went wrong on our side. Please try again.' });
  });
}
