/**
 * What SharePoint sends never breaks the Facilitators import: an item the portal cannot take is
 * skipped and reported, the rest are imported, and nothing is logged with statement parameters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalUsername, usernameSkeleton } from '../../../shared/username';
import type { FieldInput } from '../../../sharepoint-emulator/types';
import { users } from '../../db/schema';
import { type ConnectorSetup, setupConnector } from '../../sharepoint/test-support';

let s: ConnectorSetup;
let staff: string;
const logLines: string[] = [];

beforeAll(async () => {
  s = await setupConnector({
    seed: { seed: 'import-hostile', bookingCount: 2, facilitatorCount: 1 },
    env: { LOG_LEVEL: 'info' },
    build: { logStream: { write: (line: string) => void logLines.push(line) } },
  });
  staff = await s.t.loginStaff();
});
afterAll(() => s.close());

const runImport = () =>
  s.t.app.inject({ method: 'POST', url: '/api/staff/facilitators/import', headers: { cookie: staff } });

describe('hostile Facilitators items', () => {
  it('imports the rest, skips what cannot be an account, and answers 200 every time', async () => {
    const victim = await s.t.createUser({ username: 'victim@example.org', password: 'victim-pass-1' });
    const list = s.portal.lists.facilitators!;
    const add = (fields: FieldInput) => s.emu.control.addItem(list, fields);
    // the same name as the victim's in the database's folding, not in JavaScript's toLowerCase()
    add({ Title: 'Dotted', FreelancerID: 'H-1', Email: 'vİctim@example.org' });
    // looks like the victim's (Cyrillic і)
    add({ Title: 'Lookalike', FreelancerID: 'H-2', Email: 'vіctim@example.org' });
    // looks like it too: "i" with a combining dot above, which adds nothing to the i's own dot
    add({ Title: 'Dot above', FreelancerID: 'H-5', Email: 'vi\u0307ctim@example.org' });
    // both usernames the import could make are unusable or taken
    add({ Title: 'Invisible', FreelancerID: 'H\u200b3', Email: 'in\u200bvisible@example.org' });
    add({ Title: 'Plain', FreelancerID: 'H-4', Email: 'plain@example.org' });

    for (let run = 0; run < 2; run++) {
      const response = await runImport();
      expect(response.statusCode, response.body).toBe(200);
    }
    const rows = await s.t.ctx.db.select().from(users);
    // one account per canonical name, one per look, and the victim's untouched
    const canonical = rows.map((r) => canonicalUsername(r.username));
    expect(new Set(canonical).size).toBe(rows.length);
    expect(rows.filter((r) => canonicalUsername(r.username) === 'victim@example.org')).toEqual([
      expect.objectContaining({ id: victim.id, username: 'victim@example.org', freelancerId: null }),
    ]);
    expect(rows.some((r) => r.username === 'plain@example.org')).toBe(true);
    expect(rows.some((r) => r.username.includes('\u200b'))).toBe(false);
    // nothing that reads as the victim's name: the look-alikes got usernames of their own
    expect(rows.filter((r) => usernameSkeleton(r.username) === usernameSkeleton(victim.username))).toEqual([
      expect.objectContaining({ id: victim.id }),
    ]);
    expect(rows.some((r) => r.username.includes('\u0307'))).toBe(false);
    expect(rows.find((r) => r.freelancerId === 'H-5')?.username).toBe('freelancer-h-5');
    const last = (await runImport()).json();
    expect(last.skipped).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          freelancerId: 'H\u200b3',
          reason: 'no usable username: the email and freelancer ID hold characters a username cannot',
        }),
      ]),
    );
    expect(logLines.join('')).not.toMatch(/insert into|params:|victim@example\.org/i);
  });
});
