import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';

// Filled by a later issue; registered already so the app's composition does not change.
export function noteRoutes(_ctx: AppContext): FastifyPluginAsyncZod {
  return async () => {};
}
