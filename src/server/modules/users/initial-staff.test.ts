import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { freshPglite } from '../../test/harness';

describe('first staff account', () => {
  it('is generated once, handed out once, and usable; a restart hands out nothing', async () => {
    const database = await freshPglite();
    const config = loadConfig({ LOG_LEVEL: 'silent', APP_SECRET: 'y'.repeat(40) });
    const first = await buildApp(config, { database });
    const username = first.createdStaffUsername;
    const password = first.generatedStaffPassword;
    expect(username).toBeTruthy();
    expect(password).toMatch(/^\S{12,}$/);
    // taken once: nothing on the app holds it any more
    expect(first.app.takeGeneratedStaffPassword()).toBeNull();
    const login = await first.app.inject({
      method: 'POST',
      url: '/api/auth/staff-login',
      payload: { username, password },
    });
    expect(login.statusCode).toBe(200);
    await first.close();
    const second = await buildApp(config, { database });
    expect(second.createdStaffUsername).toBeNull();
    expect(second.generatedStaffPassword).toBeNull();
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
    const built = await buildApp(config, { database });
    expect(built.createdStaffUsername).toBe('boss@example.org');
    expect(built.generatedStaffPassword).toBeNull();
    const login = await built.app.inject({
      method: 'POST',
      url: '/api/auth/staff-login',
      payload: { username: 'boss@example.org', password: 'boss-password' },
    });
    expect(login.statusCode).toBe(200);
    await built.close();
    await database.close();
  });
});
