import type { FastifyReply } from 'fastify';
import type { JsonArrayText } from '../db/json-list';

/**
 * Answers with JSON the database has already serialised. Fastify sends a string with a JSON content
 * type unchanged, so the route's response schema documents the shape (OpenAPI) but is not applied
 * again; the list services' tests check that the text matches the schema.
 */
export function sendJsonText(reply: FastifyReply, body: JsonArrayText): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(body);
}
