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
    /**
     * the same answer for everyone, whoever asks (the built client's files): the session cookie is
     * not looked up, and the request neither needs nor keeps a session alive
     */
    sessionless?: boolean;
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

const STRICTNESS: Record<Access, number> = { public: 0, user: 1, staff: 2 };

/** Whether a route's URL pattern (`:param` segments, a trailing `*`) shares the first `n` segments of a path. */
function sharesSegments(pattern: string[], path: string[], n: number): boolean {
  for (let i = 0; i < n; i++) {
    const part = pattern[i];
    if (part === '*') return true;
    if (part === undefined || (!part.startsWith(':') && part !== path[i])) return false;
  }
  return true;
}

/**
 * Who may learn that no route serves an /api path, read off the routes themselves (their declared
 * access is the only access table): the routes sharing the most leading segments with the path, beyond
 * `/api/<area>`, and the strictest of them, never below signed-in. So `/api/staff/anything` answers
 * 401/403 before 404, like its neighbours, and probing reveals nothing.
 */
export function accessForUnmatched(routes: { url: string; access: Access }[], path: string): Access {
  const segments = path.split('/').filter(Boolean);
  let best: Access = 'user';
  let bestDepth = 1;
  for (const route of routes) {
    const pattern = route.url.split('/').filter(Boolean);
    let depth = 0;
    while (depth < segments.length && sharesSegments(pattern, segments, depth + 1)) depth++;
    if (depth <= 1 || depth < bestDepth) continue;
    if (depth > bestDepth) {
      bestDepth = depth;
      best = 'user';
    }
    if (STRICTNESS[route.access] > STRICTNESS[best]) best = route.access;
  }
  return best;
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
