/**
 * Time from an offer being made to its push reaching a push service, beside its email reaching an
 * SMTP server: p50 over 20 offers (`--offers N` for another count).
 *
 *   npx tsx bench/push.ts [--offers 20]
 *
 * One portal (embedded PGlite in memory, the background jobs on, as `npm start` runs them), a push
 * service stand-in and a test SMTP server on this machine (src/server/test/push-service.ts checks the
 * VAPID signature and decrypts each push with the device's keys, as a browser's push service would
 * hand it on). One facilitator with one subscribed device; each offer is made through the API as
 * staff make it, one after another, each timed from the request to the push decrypted at the stand-in
 * and to the email received. The email is sent within the request; the push after it, by the push
 * loop the request wakes. The figures go to docs/performance.md.
 */
import { performance } from 'node:perf_hooks';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { startTestSmtpServer, testMailSettings, testSmtpEnvironment } from '../src/server/mail/test-smtp';
import { saveReminderSettings } from '../src/server/modules/reminders/service';
import { createUser } from '../src/server/modules/users/service';
import { insertBooking, insertDbsCheck } from '../src/server/test/factories';
import { startTestPushService } from '../src/server/test/push-service';
import { addDays, todayIn } from '../src/shared/calendar';

const args = process.argv.slice(2);
const at = args.indexOf('--offers');
const OFFERS = at >= 0 ? Number(args[at + 1]) : 20;

const p50 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
};

async function main() {
  const push = await startTestPushService();
  const mailTimes: number[] = [];
  const smtp = await startTestSmtpServer({ onMessage: () => mailTimes.push(performance.now()) });
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: 'memory://',
    APP_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    INITIAL_STAFF_USERNAME: 'bench-staff',
    INITIAL_STAFF_PASSWORD: 'bench-staff-password',
    PUBLIC_URL: 'https://portal.example.org',
    PUSH_ALLOWED_ORIGINS: push.origin,
    ...testSmtpEnvironment(),
  });
  const built = await buildApp(config);
  const { app, ctx } = built;
  try {
    await saveReminderSettings(ctx, testMailSettings(smtp), 1);
    const login = async (path: string, username: string, password: string) => {
      const response = await app.inject({ method: 'POST', url: path, payload: { username, password } });
      const cookie = response.cookies.find((c) => c.name.endsWith('afp_session'))!;
      return `${cookie.name}=${cookie.value}`;
    };
    const staff = await login('/api/auth/staff-login', 'bench-staff', 'bench-staff-password');
    const person = await createUser(ctx.db, {
      username: 'bench-facilitator',
      password: 'bench-password-1',
      role: 'facilitator',
      email: 'bench-facilitator@example.org',
      freelancerId: '9901',
    });
    await insertDbsCheck(ctx.db, { userId: person.id });
    const cookie = await login('/api/login', 'bench-facilitator', 'bench-password-1');
    const device = push.device();
    await app.inject({
      method: 'POST',
      url: '/api/push/subscription',
      headers: { cookie },
      payload: device.subscription,
    });

    const today = todayIn(config.ORG_TIMEZONE);
    const toPush: number[] = [];
    const toEmail: number[] = [];
    const answered: number[] = [];
    for (let i = 0; i < OFFERS; i++) {
      const session = await insertBooking(ctx.db, {
        date: addDays(today, 14 + i),
        startTime: '09:30',
        endTime: '12:00',
        title: '',
        schoolName: 'Bench Primary',
      });
      const mailsBefore = mailTimes.length;
      const started = performance.now();
      const response = await app.inject({
        method: 'POST',
        url: `/api/staff/sessions/${session.id}/offers`,
        headers: { cookie: staff },
        payload: {
          userIds: [person.id],
          replyBy: new Date(Date.now() + 7 * 86_400_000).toISOString(),
          message: '',
        },
      });
      if (response.statusCode !== 201) throw new Error(`offer ${i}: ${response.statusCode} ${response.body}`);
      answered.push(performance.now() - started);
      await push.waitFor(i + 1);
      toPush.push(push.received[i]!.at - started);
      while (mailTimes.length <= mailsBefore) await new Promise((resolve) => setImmediate(resolve));
      toEmail.push(mailTimes[mailsBefore]! - started);
    }
    const ms = (value: number) => `${value.toFixed(1)} ms`;
    console.log(`offers: ${OFFERS}, one device, pushes rejected by the stand-in: ${push.rejected.length}`);
    console.log(`offer request answered   p50 ${ms(p50(answered))}`);
    console.log(`push at the stand-in     p50 ${ms(p50(toPush))}  (max ${ms(Math.max(...toPush))})`);
    console.log(`email at the SMTP server p50 ${ms(p50(toEmail))}  (max ${ms(Math.max(...toEmail))})`);
  } finally {
    await built.close();
    await push.close();
    await smtp.close();
  }
}

await main();
