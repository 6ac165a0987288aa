/**
 * Passkeys for the fuzzer's accepted samples, put back before every case: each caller's own passkey
 * (rename and remove aim at it), a registration answer to a challenge kept for that caller, and a
 * sign-in answer to a kept sign-in challenge, signed by the facilitator's passkey (counter 0, so the
 * same answer verifies again once its challenge is back). All made by the software authenticator.
 */
import { createHash } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { passkeys, webauthnChallenges } from '../db/schema';
import { TestAuthenticator, type TestPasskey } from './webauthn-authenticator';

const hash = (text: string) => createHash('sha256').update(text).digest('hex');
const FAR = new Date('2200-01-01T00:00:00Z');

interface Owner {
  id: number;
}

export function passkeyFixtures(portalUrl: string, owners: { facilitator: Owner; staff: Owner }) {
  const { hostname: rpId, origin } = new URL(portalUrl);
  const authenticator = new TestAuthenticator(false);
  const entries = (['facilitator', 'staff'] as const).map((role, index) => {
    const own = authenticator.create(
      { rp: { id: rpId }, user: { id: `fuzz-${role}` }, challenge: 'unused' },
      { origin },
    ).passkey;
    const challenge = `fuzz-registration-${role}`;
    const registration = new TestAuthenticator(false).create(
      { rp: { id: rpId }, user: { id: `fuzz-${role}` }, challenge },
      { origin },
    );
    return { role, id: 2_000_000_100 + index, own, challenge, registration };
  });
  const signInChallenge = 'fuzz-sign-in';
  const facilitatorPasskey = entries[0]!.own;
  const signInResponse = authenticator.get(
    { challenge: signInChallenge },
    { origin, passkey: facilitatorPasskey },
  );

  const row = (id: number, userId: number, passkey: TestPasskey) => ({
    id,
    credentialId: passkey.credentialId.toString('base64url'),
    userId,
    publicKey: passkey.publicKeyCose.toString('base64url'),
    counter: 0,
    transports: ['internal'],
    name: 'Fuzz passkey',
    rpId,
  });

  return {
    /** the caller's own passkey id */
    passkeyId: (role: 'facilitator' | 'staff') => String(entries.find((e) => e.role === role)!.id),
    registration: (role: 'facilitator' | 'staff') =>
      entries.find((e) => e.role === role)!.registration.response,
    signInResponse,
    /** Put every passkey and challenge back as it was; passkeys added by accepted cases go. */
    async restore(db: Db): Promise<void> {
      const added = entries.map((e) => e.registration.response.id);
      await db.delete(passkeys).where(inArray(passkeys.credentialId, added));
      for (const entry of entries) {
        const owner = owners[entry.role];
        await db.delete(passkeys).where(eq(passkeys.id, entry.id));
        await db.insert(passkeys).values(row(entry.id, owner.id, entry.own));
        await db
          .delete(webauthnChallenges)
          .where(eq(webauthnChallenges.challengeHash, hash(entry.challenge)));
        await db.insert(webauthnChallenges).values({
          challengeHash: hash(entry.challenge),
          purpose: 'registration',
          userId: owner.id,
          expiresAt: FAR,
        });
      }
      await db.delete(webauthnChallenges).where(eq(webauthnChallenges.challengeHash, hash(signInChallenge)));
      await db.insert(webauthnChallenges).values({
        challengeHash: hash(signInChallenge),
        purpose: 'authentication',
        userId: null,
        expiresAt: FAR,
      });
    },
  };
}
