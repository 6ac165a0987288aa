import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { freshPglite } from '../../test/harness';

describe('first staff account', () => {
  it('is generated once, printed once, and usable; a restart prints nothing', async () => {
    const database = await freshPglite();
    const config = loadConfig({ LOG_LEVEL: 'silent', APP_SECRET: 'y'.repeat(40) });
    const printed: [string, string][] = [];
    const onGeneratedStaffPassword = (username: string, password: string) =>
      printed.push([username, password]);
    const first = await buildApp(config, { database, onGeneratedStaffPassword });
    expect(printed).toHaveLength(1);
    const [username, password] = printed[0]!;
    const login = await first.app.inject({
      method: 'POST',
      url: '/api/auth/staff-login',
      payload: { username, password },
    });
    expect(login.statusCode).toBe(200);
    await first.close();
    const second = await buildApp(config, { database, onGeneratedStaffPassword });
    expect(printed).toHaveLength(1);
    await second.close();
    await database.close();
  });

  it('uses INITIAL_STAFF_USERNAME and INITIAL_STAFF_PASSWORD when given', async () => {
    const database = await freshPglite();
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      APP_SECRET: 'y'.repeat(40),
      INITIAL_STAFF_USERNAME: 'boss@example.org',
      INITIAL_STAFF_PASSWORD: 'boss-password',
    });
    const printed: string[] = [];
    const built = await buildApp(config, { database, onGeneratedStaffPassword: (u) => printed.push(u) });
    const login = await built.app.inject({
      method: 'POST',
      url: '/api/auth/staff-login',
      payload: { username: 'boss@example.org', password: 'boss-password' },
    });
    expect(login.statusCode).toBe(200);
    expect(printed).toEqual([]);
    await built.close();
    await database.close();
  });
});
