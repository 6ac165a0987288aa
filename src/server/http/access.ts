import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionUser } from '../auth/sessions';

/**
 * Who may call a route. Every /api route must declare one (buildApp refuses to start otherwise), so
 * a new route cannot be left open by forgetting a guard.
 */
export type Access = 'public' | 'user' | 'staff';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** a GET that changes state (logout links): refused cross-site like any POST */
    changesState?: boolean;
  }
  interface FastifyRequest {
    user: SessionUser | null;
    sessionToken: string | null;
  }
}

export function isStaff(user: SessionUser | null | undefined): boolean {
  return user?.role === 'staff';
}

export async function enforceAccess(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const access = request.routeOptions.config.access;
  if (!access || access === 'public') return;
  if (!request.user) {
    await reply.code(401).send({ message: 'Please sign in to continue' });
    return;
  }
  if (access === 'staff' && !isStaff(request.user)) {
    await reply.code(403).send({ message: 'This is for staff only' });
  }
}

/** The signed-in user of a route guarded with access 'user' or 'staff'. */
export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw new Error('currentUser() used on a route without an access guard');
  return request.user;
}

/** onRoute hook: an /api route without a declared access level is a programming error. */
export function requireDeclaredAccess(route: {
  method: string | string[];
  url: string;
  config?: { access?: Access };
}): void {
  if (route.url.startsWith('/api/') && !route.url.startsWith('/api/docs') && !route.config?.access) {
    throw new Error(
      `Route ${String(route.method)} ${route.url} does not declare who may call it (config.access)`,
    );
  }
}
