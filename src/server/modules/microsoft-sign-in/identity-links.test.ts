/**
 * Which Microsoft identity signs in to which account, and who decided: invitations (by whom, for whom),
 * links, replacements and removals are in the account's history; an account already linked is only
 * re-invited by staff's explicit choice to replace its identity, whose owner is then emailed; and the
 * sessions an identity opened end when it is replaced or unlinked. Against the test identity provider
 * and a real SMTP server, both started here.
 */
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { changeHistory, microsoftIdentities, microsoftInvitations } from '../../db/schema';
import {
  startTestSmtpServer,
  type TestSmtpServer,
  testMailSettings,
  testSmtpEnvironment,
} from '../../mail/test-smtp';
import { EntraBrowser } from '../../test/entra-browser';
import { startTestEntra, type TestEntra } from '../../test/entra-provider';
import type { TestApp } from '../../test/harness';
import {
  invitationTokenOf,
  landing,
  SIGN_IN_PORTAL as PORTAL,
  signInTestApp,
  whoAmI,
} from '../../test/microsoft-sign-in';
import { saveReminderSettings } from '../reminders/service';

let entra: TestEntra;
let smtp: TestSmtpServer;
let t: TestApp;
let staffCookie: string;
let staffId: number;

beforeAll(async () => {
  entra = await startTestEntra({ portalUrl: PORTAL });
  smtp = await startTestSmtpServer();
  t = await signInTestApp(entra, testSmtpEnvironment());
  staffCookie = await t.loginStaff();
  staffId = (await t.app.inject({ method: 'GET', url: '/api/user', headers: { cookie: staffCookie } })).json()
    .id;
  await saveReminderSettings(t.ctx, testMailSettings(smtp), staffId);
}, 180_000);

afterAll(async () => {
  await t?.close();
  await entra?.close();
  await smtp?.close();
});

afterEach(() => {
  entra.nextSignIn = undefined;
});

const browser = () => new EntraBrowser(t, entra, PORTAL);

let serial = 0;
/** A staff account with a password, and a Microsoft account in the directory of its own. */
async function colleague() {
  serial += 1;
  const user = await t.createUser({
    username: `links-${serial}@example.org`,
    email: `links-${serial}@example.org`,
    displayName: `Colleague ${serial}`,
    role: 'staff',
  });
  const oid = `00000000-0000-4000-a000-${String(serial).padStart(12, '0')}`;
  entra.accounts.set(oid, {
    oid,
    name: `Colleague ${serial}`,
    preferredUsername: `links-${serial}@contoso.example`,
  });
  return { user, oid, signInName: `links-${serial}@contoso.example` };
}

/** Staff invite the account (optionally replacing its identity): the answer. */
function invite(userId: number, body?: object, cookie = staffCookie) {
  return t.app.inject({
    method: 'POST',
    url: `/api/staff/users/${userId}/microsoft-invitation`,
    headers: { cookie },
    ...(body ? { payload: body } : {}),
  });
}

async function inviteToken(userId: number, body?: object): Promise<string> {
  const response = await invite(userId, body);
  expect(response.statusCode, response.body).toBe(201);
  return invitationTokenOf(response.json<{ link: string }>().link);
}

/** The newest email to this address. */
const mailTo = (address: string) => smtp.messages.filter((m) => m.to.includes(address)).at(-1);

/** The account's history of its link to Microsoft, oldest first. */
async function identityHistory(userId: number) {
  const rows = await t.ctx.db
    .select()
    .from(changeHistory)
    .where(and(eq(changeHistory.subjectUserId, userId), eq(changeHistory.entity, 'account')))
    .orderBy(asc(changeHistory.id));
  return rows.filter((row) => (row.after as { section?: string } | null)?.section === 'microsoft-sign-in');
}

describe('Microsoft identities and their history', () => {
  it('records the invitation (by whom, for whom) and the link it made (which Microsoft account)', async () => {
    const { user, oid, signInName } = await colleague();
    const token = await inviteToken(user.id);
    const b = browser();
    expect((await b.signIn({ invitation: token, as: oid })).headers.location).toBe('/staff');
    const history = await identityHistory(user.id);
    expect(history.map((h) => [(h.after as { event: string }).event, h.actorId])).toEqual([
      ['invited', staffId],
      ['linked', user.id],
    ]);
    expect(history[0]!.after).toMatchObject({ invitationValidUntil: expect.any(String) });
    expect(history[1]!.before).toMatchObject({ microsoftAccount: null });
    expect(history[1]!.after).toMatchObject({
      microsoftAccount: `${signInName} (${oid})`,
      invitedBy: expect.any(String),
    });
    // no token, state or code in what the history keeps
    expect(JSON.stringify(history)).not.toContain(token);
    // the owner hears which Microsoft account signs in to their account now, and whose invitation it was
    const mail = mailTo(user.email!);
    expect(mail?.subject).toBe('Your portal account is now linked to a Microsoft account');
    expect(mail?.text).toContain(signInName);
    expect(mail?.text).not.toContain(token);
  });

  it('re-invites a linked account only when staff choose to replace its identity', async () => {
    const { user, oid } = await colleague();
    await browser().signIn({ invitation: await inviteToken(user.id), as: oid });
    const refused = await invite(user.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/already linked to a Microsoft account/);
    expect(
      await t.ctx.db.select().from(microsoftInvitations).where(eq(microsoftInvitations.userId, user.id)),
    ).toEqual([]);
    expect((await invite(user.id, { replaceIdentity: true })).statusCode).toBe(201);
    const [last] = (await identityHistory(user.id)).slice(-1);
    expect(last!.after).toMatchObject({ event: 'invited', replacesLinkedAccount: true });
  });

  it('an invitation made without replacing does not take over an identity linked since', async () => {
    const { user, oid } = await colleague();
    const token = await inviteToken(user.id);
    // the account is linked meanwhile, to the colleague's own Microsoft account
    await t.ctx.db
      .insert(microsoftIdentities)
      .values({ userId: user.id, issuer: entra.issuer, tenantId: entra.tenantId, objectId: oid });
    const other = await colleague();
    const intruder = browser();
    const answer = await intruder.signIn({ invitation: token, as: other.oid });
    expect(landing(answer)).toEqual({ path: '/staff-login', error: 'already_linked' });
    expect(await whoAmI(intruder)).toBeNull();
    const identities = await t.ctx.db
      .select({ objectId: microsoftIdentities.objectId })
      .from(microsoftIdentities)
      .where(eq(microsoftIdentities.userId, user.id));
    expect(identities).toEqual([{ objectId: oid }]);
  });

  it('replacing ends the sessions the old identity opened, is recorded, and its owner is emailed', async () => {
    const victim = await colleague();
    const theirs = browser();
    await theirs.signIn({ invitation: await inviteToken(victim.user.id), as: victim.oid });
    expect(await whoAmI(theirs)).toMatchObject({ id: victim.user.id });
    const withPassword = await t.login(victim.user.username, victim.user.password, { staff: true });

    // another staff member's Microsoft account, through an invitation made to replace the identity
    const other = await colleague();
    const token = await inviteToken(victim.user.id, { replaceIdentity: true });
    const replacing = browser();
    expect((await replacing.signIn({ invitation: token, as: other.oid })).headers.location).toBe('/staff');
    expect(await whoAmI(replacing)).toMatchObject({ id: victim.user.id });

    // the old identity's session is over; the password session is not; the old identity signs in nobody
    expect(await whoAmI(theirs)).toBeNull();
    const own = await t.app.inject({ method: 'GET', url: '/api/user', headers: { cookie: withPassword } });
    expect(own.json()).toMatchObject({ id: victim.user.id });
    expect(landing(await browser().signIn({ as: victim.oid })).error).toBe('no_invitation');

    const [replaced] = (await identityHistory(victim.user.id)).slice(-1);
    expect(replaced!.before).toMatchObject({ microsoftAccount: `${victim.signInName} (${victim.oid})` });
    expect(replaced!.after).toMatchObject({
      event: 'replaced',
      microsoftAccount: `${other.signInName} (${other.oid})`,
    });

    const mail = mailTo(victim.user.email!);
    expect(mail?.subject).toBe('Your portal account is now linked to another Microsoft account');
    expect(mail?.text).toContain(other.signInName);
    expect(mail?.text).not.toContain(token);
  });

  it('unlinking ends the sessions Microsoft sign-ins opened and is recorded with who removed it', async () => {
    const { user, oid, signInName } = await colleague();
    const theirs = browser();
    await theirs.signIn({ invitation: await inviteToken(user.id), as: oid });
    const withPassword = await t.login(user.username, user.password, { staff: true });
    const unlinked = await t.app.inject({
      method: 'DELETE',
      url: `/api/staff/users/${user.id}/microsoft-identity`,
      headers: { cookie: staffCookie },
    });
    expect(unlinked.statusCode).toBe(200);
    expect(await whoAmI(theirs)).toBeNull();
    const own = await t.app.inject({ method: 'GET', url: '/api/user', headers: { cookie: withPassword } });
    expect(own.statusCode).toBe(200);
    const [removed] = (await identityHistory(user.id)).slice(-1);
    expect(removed).toMatchObject({
      actorId: staffId,
      before: { microsoftAccount: `${signInName} (${oid})` },
      after: { event: 'unlinked', microsoftAccount: null },
    });
    expect(mailTo(user.email!)?.subject).toBe('Microsoft sign-in was removed from your portal account');
  });

  it('removing a link and inviting afresh is no silent way round: the owner hears of both', async () => {
    const victim = await colleague();
    await browser().signIn({ invitation: await inviteToken(victim.user.id), as: victim.oid });
    const before = smtp.messages.length;
    const unlinked = await t.app.inject({
      method: 'DELETE',
      url: `/api/staff/users/${victim.user.id}/microsoft-identity`,
      headers: { cookie: staffCookie },
    });
    expect(unlinked.statusCode).toBe(200);
    const other = await colleague();
    await browser().signIn({ invitation: await inviteToken(victim.user.id), as: other.oid });
    const told = smtp.messages.slice(before).filter((m) => m.to.includes(victim.user.email!));
    expect(told.map((m) => m.subject)).toEqual([
      'Microsoft sign-in was removed from your portal account',
      'Your portal account is now linked to a Microsoft account',
    ]);
    expect(told[1]!.text).toContain(other.signInName);
    expect((await identityHistory(victim.user.id)).map((h) => (h.after as { event: string }).event)).toEqual([
      'invited',
      'linked',
      'unlinked',
      'invited',
      'linked',
    ]);
  });
});
