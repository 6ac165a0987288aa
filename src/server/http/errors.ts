import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import {
  AppError,
  CONCURRENCY_FAILURE_MESSAGE,
  DATABASE_UNAVAILABLE_MESSAGE,
  isConcurrencyFailure,
  isDatabaseUnavailable,
  loggableError,
} from '../errors';

const INTERNAL_ERROR_MESSAGE = 'Something went wrong on our side. Please try again.';
const UNREADABLE_REQUEST_MESSAGE = 'The request could not be read';

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
          : UNREADABLE_REQUEST_MESSAGE;
      return reply.code(status).send({ message });
    }
    if (isDatabaseUnavailable(error)) {
      // PostgreSQL restarting or unreachable: a clear, retryable answer, and one short log line per
      // request rather than a stack trace each (an outage fails every request at once). The
      // driver's own error only: drizzle's wrapper message carries the query and its parameters.
      let cause: unknown = error;
      for (let depth = 0; depth < 5 && (cause as { cause?: unknown }).cause; depth++) {
        cause = (cause as { cause?: unknown }).cause;
      }
      request.log.warn(
        {
          code: (cause as { code?: unknown }).code,
          err: cause instanceof Error ? cause.message : String(cause),
        },
        'database unavailable',
      );
      return reply.code(503).header('retry-after', '5').send({ message: DATABASE_UNAVAILABLE_MESSAGE });
    }
    if (isConcurrencyFailure(error)) {
      // a deadlock or serialisation failure rolled the whole transaction back: a conflict the
      // caller may retry, never a 500
      request.log.warn({ err: loggableError(error) }, 'transaction gave way to a concurrent one');
      return reply.code(409).send({ message: CONCURRENCY_FAILURE_MESSAGE });
    }
    request.log.error({ err: loggableError(error) }, 'request failed');
    return reply.code(500).send({ message: INTERNAL_ERROR_MESSAGE });
  });
}

/**
 * Fastify's `frameworkErrors` option: a URL the router cannot read (bad percent-encoding such as
 * `/api/staff/users/%C0%AE`, an over-long path parameter) is answered before any hook or error
 * handler runs, by default with Fastify's own body `{error, code, message, statusCode}` that echoes
 * the path. Found by the fuzz suite; answered in our one error shape instead.
 */
export function frameworkErrorHandler(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 400;
  reply
    .code(status)
    .header('cache-control', 'no-store')
    .send({
      message: status >= 500 ? INTERNAL_ERROR_MESSAGE : UNREADABLE_REQUEST_MESSAGE,
    });
}
