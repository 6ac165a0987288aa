import { type FullConfig, request } from '@playwright/test';
import { BASE_URL, FACILITATORS } from './constants';
import { staffApi } from './fixtures';

/** Creates the shared test facilitators through the staff API (idempotent: 409 means already there). */
export default async function globalSetup(_config: FullConfig) {
  const api = await staffApi();
  try {
    for (const user of Object.values(FACILITATORS)) {
      const res = await api.post('/api/staff/users', {
        data: {
          username: user.username,
          password: user.password,
          displayName: user.displayName ?? '',
          email: user.username,
          freelancerId: '',
          role: 'facilitator',
        },
      });
      if (!res.ok() && res.status() !== 409) {
        throw new Error(`creating ${user.username} failed: ${res.status()} ${await res.text()}`);
      }
    }
  } finally {
    await api.dispose();
  }
  // fail early with a clear message if facilitator login does not work
  const check = await request.newContext({ baseURL: BASE_URL });
  const res = await check.post('/api/login', {
    data: { username: FACILITATORS.alice.username, password: FACILITATORS.alice.password },
  });
  if (!res.ok()) throw new Error(`facilitator login check failed: ${res.status()} ${await res.text()}`);
  await check.dispose();
}
