/**
 * The pages the browser benches open, each with the session it is opened with. Shared by
 * bench/lighthouse.ts and bench/long-tasks.ts so both measure the same pages under the same names.
 */
import type { SeededApp } from './serve-seeded';

export interface BenchPage {
  name: string;
  path: string;
  session: (served: SeededApp) => string | null;
}

export const BENCH_PAGES: Record<string, BenchPage> = {
  login: { name: 'login page /auth', path: '/auth', session: () => null },
  staffLogin: { name: 'staff login /staff-login', path: '/staff-login', session: () => null },
  calendar: { name: 'facilitator calendar /', path: '/', session: (s) => s.facilitatorSession },
  offers: { name: 'offers /offers', path: '/offers', session: (s) => s.facilitatorSession },
  settings: {
    name: 'settings, own safeguarding checks /settings',
    path: '/settings',
    session: (s) => s.facilitatorSession,
  },
  changePassword: {
    name: 'change password /change-password',
    path: '/change-password',
    session: (s) => s.facilitatorSession,
  },
  dashboard: { name: 'staff dashboard /staff', path: '/staff', session: (s) => s.staffSession },
  users: { name: 'users, safeguarding /staff/users', path: '/staff/users', session: (s) => s.staffSession },
  free: { name: 'who is free /staff/free', path: '/staff/free', session: (s) => s.staffSession },
  completeness: {
    name: 'completeness /staff/completeness',
    path: '/staff/completeness',
    session: (s) => s.staffSession,
  },
  sessions: {
    name: 'open sessions /staff/sessions',
    path: '/staff/sessions',
    session: (s) => s.staffSession,
  },
  staffSettings: {
    name: 'staff settings, safeguarding policy /settings',
    path: '/settings',
    session: (s) => s.staffSession,
  },
};
