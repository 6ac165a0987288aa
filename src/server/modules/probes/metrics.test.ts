import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_METRICS_TOKEN } from '../../test/built-client';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: TEST_METRICS_TOKEN });
});
afterAll(() => t.close());

const scrape = (authorization?: string) =>
  t.app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });

describe('/metrics', () => {
  it('answers only the bearer of METRICS_TOKEN, never a session', async () => {
    const staff = await t.loginStaff();
    for (const response of [
      await scrape(),
      await scrape('Bearer not-the-token'),
      await scrape(`Basic ${TEST_METRICS_TOKEN}`),
      await t.app.inject({ url: '/metrics', headers: { cookie: staff } }),
    ]) {
      expect(response.statusCode).toBe(401);
      expect(response.body).not.toContain('afp_');
    }
  });

  it('is off without METRICS_TOKEN', async () => {
    const off = await createTestApp();
    try {
      expect((await off.app.inject({ url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });

  it('names requests by route, the outboxes, SharePoint, the bookings refresh, emails and sign-in failures', async () => {
    await t.app.inject({ url: '/api/health' });
    await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: 'nobody@example.org', password: 'wrong-password' },
    });
    // a Microsoft answer this browser never asked for is refused
    const forged = await t.app.inject({ url: '/api/auth/microsoft/callback?code=forged&state=forged' });
    expect(forged.statusCode).toBe(302);
    const response = await scrape(`Bearer ${TEST_METRICS_TOKEN}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = response.body;
    for (const name of [
      'afp_http_requests_total',
      'afp_http_request_duration_seconds',
      'afp_outbox_depth',
      'afp_outbox_oldest_age_seconds',
      'afp_sharepoint_errors_total',
      'afp_sharepoint_problem',
      'afp_bookings_refresh_age_seconds',
      'afp_bookings_refresh_failing',
      'afp_emails_total',
      'afp_sign_in_failures_total',
    ])
      expect(text).toContain(`# TYPE ${name} `);
    expect(text).toContain('afp_http_requests_total{method="GET",route="/api/health",status="200"} 1');
    expect(text).toContain('afp_sign_in_failures_total{route="/api/login",status="401"} 1');
    expect(text).toMatch(
      /afp_sign_in_failures_total\{route="\/api\/auth\/microsoft\/callback",status="expired_request"\} 1/,
    );
    expect(text).toContain('afp_outbox_depth{outbox="availability"} 0');
    expect(text).toContain('afp_outbox_depth{outbox="bookings"} 0');
    expect(text).toContain('afp_sharepoint_problem{area="bookings"} 0');
    expect(text).toContain('afp_bookings_refresh_failing 0');
  });
});
