import { inflateSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  calendarFeeds,
  certificateViews,
  facilitatorPhotos,
  microsoftIdentities,
  passwordLinks,
  reminderSends,
  safeguardingRecordVersions,
  safeguardingReminderSends,
  sessions,
  users,
} from '../../db/schema';
import { insertBooking, insertDay, insertNote, insertOffer } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import {
  applyRecordVersionRetention,
  eraseRecordVersions,
  recordsOnDays,
} from '../safeguarding/record-versions';
import { erasePhoto } from './photos';
import { applyCertificateViewRetention, ERASED_VIEWER, eraseCertificateViews } from './viewing-log';

/*
 * The viewing log, the subject access archive, the school's assurance and photos, through the API on
 * a real database. The app's clock is set by each test (`at`), so the days do not depend on today.
 */
let t: TestApp;
let now = new Date('2026-01-10T10:00:00Z');
let fran: Awaited<ReturnType<TestApp['createUser']>>;
let sam: Awaited<ReturnType<TestApp['createUser']>>;

beforeAll(async () => {
  t = await createTestApp({}, { now: () => now });
  fran = await t.createUser({
    username: 'fran@example.org',
    displayName: 'Fran Field',
    password: 'fran-pass-1',
    email: 'fran@example.org',
  });
  sam = await t.createUser({ username: 'sam@example.org', displayName: 'Sam Stone', password: 'sam-pass-1' });
});
afterAll(() => t.close());

type Method = 'GET' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, cookie: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: { cookie },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

/** Windows-1252's letters at 0x80-0x9f (Node decodes that range as Latin-1's control codes). */
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
const windows1252 = (byte: number) =>
  byte >= 0x80 && byte <= 0x9f ? CP1252_HIGH[byte - 0x80]! : String.fromCharCode(byte);

/**
 * The text a PDF shows, one entry per text operator: each content stream inflated when compressed,
 * the hex strings of its TJ arrays decoded as Windows-1252 (the standard fonts' encoding).
 */
function pdfText(pdf: Buffer): string[] {
  const raw = pdf.toString('latin1');
  const lines: string[] = [];
  for (const match of raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    const bytes = Buffer.from(match[1]!, 'latin1');
    let content: string;
    try {
      content = inflateSync(bytes).toString('latin1');
    } catch {
      content = match[1]!;
    }
    for (const array of content.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
      const hex = [...array[1]!.matchAll(/<([0-9a-fA-F]*)>/g)].map((m) => m[1]).join('');
      lines.push([...Buffer.from(hex, 'hex')].map(windows1252).join(''));
    }
  }
  return lines;
}

/** Moves the app's clock and signs staff in at that time. */
async function at(instant: string): Promise<string> {
  now = new Date(instant);
  return t.loginStaff();
}

async function saveDbs(
  staff: string,
  userId: number,
  certificateNumber: string,
  issueDate: string,
  extra = {},
) {
  const current = await call('GET', `/api/staff/users/${userId}/safeguarding`, staff);
  const response = await call('PUT', `/api/staff/users/${userId}/safeguarding`, staff, {
    dbs: {
      certificateNumber,
      issueDate,
      enhancedWithBarredList: true,
      onUpdateService: true,
      statusCheckedOn: null,
      checkedBy: 'Office',
      ...extra,
    },
    checks: [],
    version: current.json().version,
  });
  expect(response.statusCode, response.body).toBe(200);
}

const viewsOf = async (staff: string, userId: number) => {
  const response = await call('GET', `/api/staff/users/${userId}/certificate-views`, staff);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().views as { via: string; viewerName: string; at: string }[];
};

describe('the viewing log', () => {
  it('has one entry per answer or export carrying a whole certificate number, and none for masked ones', async () => {
    const staff = await at('2026-01-10T10:00:00Z');
    await t.ctx.db.delete(certificateViews);
    // saving: the form's read holds no number yet (none is recorded), the PUT's answer does
    await saveDbs(staff, fran.id, '001234561111', '2025-06-01');
    expect((await viewsOf(staff, fran.id)).map((v) => v.via)).toEqual(['staff-records-saved']);

    // masked answers and the school record CSV are not entered
    expect((await call('GET', '/api/staff/safeguarding', staff)).statusCode).toBe(200);
    expect(
      (await call('GET', '/api/staff/safeguarding/export?from=2026-01-01&to=2026-01-31', staff)).statusCode,
    ).toBe(200);
    // someone with no certificate: nothing to see, nothing entered
    expect((await call('GET', `/api/staff/users/${sam.id}/safeguarding`, staff)).statusCode).toBe(200);
    expect(await viewsOf(staff, sam.id)).toEqual([]);

    // the person's own read, and a staff read: one each
    const franCookie = await t.login('fran@example.org', 'fran-pass-1');
    const own = await call('GET', '/api/safeguarding', franCookie);
    expect(own.json().dbs.certificateNumber).toBe('001234561111');
    await call('GET', `/api/staff/users/${fran.id}/safeguarding`, staff);
    // the archive holds the number: one entry for it
    expect((await call('GET', `/api/staff/users/${fran.id}/subject-access`, staff)).statusCode).toBe(200);

    const views = await viewsOf(staff, fran.id);
    expect(views.map((v) => v.via)).toEqual([
      'subject-access',
      'staff-records',
      'own-records',
      'staff-records-saved',
    ]);
    expect(views.map((v) => v.viewerName)).toEqual([
      'Staff Administrator',
      'Staff Administrator',
      'Fran Field',
      'Staff Administrator',
    ]);
    expect(views.every((v) => v.at === '2026-01-10T10:00:00.000Z')).toBe(true);
  });

  it('is for staff only, and 404 for nobody', async () => {
    const staff = await at('2026-01-10T10:00:00Z');
    const franCookie = await t.login('fran@example.org', 'fran-pass-1');
    expect((await call('GET', `/api/staff/users/${fran.id}/certificate-views`, franCookie)).statusCode).toBe(
      403,
    );
    expect((await call('GET', '/api/staff/users/999999/certificate-views', staff)).statusCode).toBe(404);
  });

  it('erasure removes the entries about a person and anonymises those where they were the viewer; retention removes old ones', async () => {
    const db = t.ctx.db;
    await db.delete(certificateViews);
    await db.insert(certificateViews).values([
      {
        at: new Date('2025-01-01T00:00:00Z'),
        subjectUserId: fran.id,
        viewerId: sam.id,
        viewerName: 'Sam Stone',
        via: 'staff-records',
      },
      {
        at: new Date('2026-01-01T00:00:00Z'),
        subjectUserId: sam.id,
        viewerId: fran.id,
        viewerName: 'Fran Field',
        via: 'staff-records',
      },
      {
        at: new Date('2026-01-02T00:00:00Z'),
        subjectUserId: sam.id,
        viewerId: sam.id,
        viewerName: 'Sam Stone',
        via: 'own-records',
      },
    ]);
    expect(await eraseCertificateViews(db, fran.id)).toEqual({ removed: 1, anonymised: 1 });
    const left = await db.select().from(certificateViews).orderBy(certificateViews.id);
    expect(left.map((v) => [v.subjectUserId, v.viewerId, v.viewerName])).toEqual([
      [sam.id, null, ERASED_VIEWER],
      [sam.id, sam.id, 'Sam Stone'],
    ]);
    // the day of the boundary stays; the day before goes
    expect(await applyCertificateViewRetention(db, new Date('2026-01-02T00:00:00Z'))).toBe(1);
    expect(await db.select().from(certificateViews)).toHaveLength(1);
  });
});

describe("the school's assurance", () => {
  it('shows each person’s checks as they stood on the session’s day, across a renewal', async () => {
    const db = t.ctx.db;
    const riya = await t.createUser({ username: 'riya@example.org', displayName: 'Riya Rao' });
    let staff = await at('2026-02-10T10:00:00Z');
    await saveDbs(staff, riya.id, '009876541111', '2025-06-01');
    // renewed on 2026-03-01: a new certificate issued on 2026-02-20
    staff = await at('2026-03-01T10:00:00Z');
    await saveDbs(staff, riya.id, '009876542222', '2026-02-20', { statusCheckedOn: '2026-02-28' });

    const before = await insertBooking(db, {
      date: '2026-02-01',
      userId: riya.id,
      schoolName: 'Hill School',
      startTime: '09:00',
      endTime: '12:00',
    });
    const between = await insertBooking(db, {
      date: '2026-02-25',
      userId: riya.id,
      schoolName: 'Hill School',
    });
    const renewalDay = await insertBooking(db, {
      date: '2026-03-01',
      userId: riya.id,
      schoolName: 'hill school ',
    });
    const after = await insertBooking(db, { date: '2026-03-05', userId: riya.id, schoolName: 'Hill School' });
    await insertBooking(db, { date: '2026-03-05', userId: riya.id, schoolName: 'Dale School' });
    await insertBooking(db, { date: '2026-03-05', schoolName: 'Hill School' }); // open: nobody sent

    staff = await at('2026-04-01T10:00:00Z');
    const response = await call(
      'GET',
      '/api/staff/assurance?from=2026-01-01&to=2026-03-31&school=Hill%20School',
      staff,
    );
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.statement).toMatch(/^We confirm/);
    expect(body.generatedAt).toBe('2026-04-01T10:00:00.000Z');
    const shown = body.sessions.map(
      (s: {
        bookingId: number;
        person: {
          recordedOn: string | null;
          dbs: { certificate: string; issueDate: string; statusCheckedOn: string | null } | null;
          status: { state: string };
        };
      }) => [
        s.bookingId,
        s.person.recordedOn,
        s.person.dbs?.certificate ?? null,
        s.person.dbs?.issueDate ?? null,
        s.person.dbs?.statusCheckedOn ?? null,
        s.person.status.state,
      ],
    );
    expect(shown).toEqual([
      // before any record was saved: nothing to show, missing
      [before.id, null, null, null, null, 'missing'],
      // the new certificate was issued, but not yet seen: the old one stood
      [between.id, '2026-02-10', '********1111', '2025-06-01', null, 'valid'],
      // saved on the session's day: it stood at the end of that day
      [renewalDay.id, '2026-03-01', '********2222', '2026-02-20', '2026-02-28', 'valid'],
      [after.id, '2026-03-01', '********2222', '2026-02-20', '2026-02-28', 'valid'],
    ]);
    expect(response.body).not.toContain('009876541111');
    expect(response.body).not.toContain('009876542222');

    const one = await call('GET', `/api/staff/assurance?bookingId=${between.id}`, staff);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().sessions).toHaveLength(1);
    expect(one.json().sessions[0].person.dbs.certificate).toBe('********1111');
    expect(one.json().sessions[0].person.dbs.enhancedWithBarredList).toBe(true);

    // refused: both a session and a range, or neither; facilitators
    expect(
      (await call('GET', `/api/staff/assurance?bookingId=${between.id}&from=2026-01-01&to=2026-01-02`, staff))
        .statusCode,
    ).toBe(400);
    expect((await call('GET', '/api/staff/assurance', staff)).statusCode).toBe(400);
    const riyaCookie = await t.login('riya@example.org', 'password-123');
    expect((await call('GET', `/api/staff/assurance?bookingId=${between.id}`, riyaCookie)).statusCode).toBe(
      403,
    );

    // the same as a PDF: each person's name and the masked number of the day, no whole number, and
    // (masked numbers only) nothing entered in the viewing log
    const viewsBefore = await db.select().from(certificateViews);
    const pdf = await call(
      'GET',
      '/api/staff/assurance/pdf?from=2026-01-01&to=2026-03-31&school=Hill%20School',
      staff,
    );
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(
      'attachment; filename="assurance-2026-01-01-to-2026-03-31.pdf"',
    );
    expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain('Confirmation of safeguarding checks');
    expect(text.filter((line) => line === 'Riya Rao')).toHaveLength(4);
    expect(text.filter((line) => line === '********1111')).toHaveLength(1);
    expect(text.filter((line) => line === '********2222')).toHaveLength(2);
    expect(text).toContain('None recorded by the session’s day');
    expect(text.join('')).toContain(body.statement); // wrapped over lines
    expect(pdf.rawPayload.includes('009876541111')).toBe(false);
    expect(text.join('\n')).not.toMatch(/009876541111|009876542222/);
    const onePdf = pdfText(
      (await call('GET', `/api/staff/assurance/pdf?bookingId=${between.id}`, staff)).rawPayload,
    );
    expect(onePdf).toContain('********1111');
    expect(onePdf).not.toContain('********2222');
    expect(await db.select().from(certificateViews)).toEqual(viewsBefore);
    expect(
      (await call('GET', `/api/staff/assurance/pdf?bookingId=${between.id}`, riyaCookie)).statusCode,
    ).toBe(403);
    expect((await call('GET', '/api/staff/assurance/pdf?bookingId=999999', staff)).statusCode).toBe(404);
  });

  it('a PDF for a name beyond the standard font’s letters: made, the letter shown as "?"', async () => {
    const staff = await at('2026-04-01T10:00:00Z');
    const lucja = await t.createUser({ username: 'lucja@example.org', displayName: 'Łucja Żak–Zoë' });
    const booked = await insertBooking(t.ctx.db, {
      date: '2026-03-10',
      userId: lucja.id,
      schoolName: 'Łódź',
    });
    const pdf = await call('GET', `/api/staff/assurance/pdf?bookingId=${booked.id}`, staff);
    expect(pdf.statusCode, pdf.body).toBe(200);
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain('?ucja ?ak–Zoë');
    expect(text).toContain('10 March 2026 · ?ód?');
  });

  it('prints the organisation’s statement once saved, and refuses a blank one', async () => {
    const staff = await at('2026-04-01T10:00:00Z');
    expect(
      (await call('PUT', '/api/staff/assurance/statement', staff, { statement: '   ' })).statusCode,
    ).toBe(400);
    const saved = await call('PUT', '/api/staff/assurance/statement', staff, {
      statement: ' Checked by Arts Org. ',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().statement).toBe('Checked by Arts Org.');
    const read = await call('GET', '/api/staff/assurance?from=2026-03-05&to=2026-03-05', staff);
    expect(read.json().statement).toBe('Checked by Arts Org.');
  });

  it('record versions: erasure removes a person’s, retention only those no longer in force on the cutoff', async () => {
    const db = t.ctx.db;
    const kim = await t.createUser({ username: 'kim@example.org' });
    const version = (recordedOn: string, last4: string) => ({
      userId: kim.id,
      recordedOn,
      dbsCertificateLast4: last4,
      dbsIssueDate: '2025-01-01',
    });
    await db
      .insert(safeguardingRecordVersions)
      .values([version('2025-01-10', '1000'), version('2025-06-10', '2000'), version('2025-09-10', '3000')]);
    // the day before the second state was saved: the first was still in force, nothing goes
    expect(await applyRecordVersionRetention(db, '2025-06-09')).toBe(0);
    // the day of: the first stopped being in force
    expect(await applyRecordVersionRetention(db, '2025-06-10')).toBe(1);
    const on = await recordsOnDays(db, [{ userId: kim.id, date: '2025-07-01' }]);
    expect(on(kim.id, '2025-07-01').records.dbs?.certificateNumber).toBe('********2000');
    expect(await eraseRecordVersions(db, kim.id)).toBe(2);
    expect(
      await db.select().from(safeguardingRecordVersions).where(eq(safeguardingRecordVersions.userId, kim.id)),
    ).toEqual([]);
  });
});

/** A JPEG with EXIF metadata naming a camera and a place. */
const jpegWithExif = () =>
  sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .jpeg()
    .withExif({ IFD0: { Make: 'SecretCamera', Artist: 'Hidden Photographer' } })
    .toBuffer();

describe('photos', () => {
  it('keeps a resized copy with no metadata, shown to staff only', async () => {
    const staff = await at('2026-04-01T10:00:00Z');
    const original = await jpegWithExif();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    expect(original.includes('SecretCamera')).toBe(true);

    const saved = await call('PUT', `/api/staff/users/${fran.id}/photo`, staff, {
      image: original.toString('base64'),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ width: 600, height: 450 });

    const shown = await call('GET', `/api/staff/users/${fran.id}/photo`, staff);
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-type']).toBe('image/jpeg');
    const kept = shown.rawPayload;
    const metadata = await sharp(kept).metadata();
    expect(metadata.format).toBe('jpeg');
    expect(metadata.exif).toBeUndefined();
    expect(metadata.width).toBe(600);
    expect(kept.includes('SecretCamera')).toBe(false);
    expect(kept.includes('Hidden Photographer')).toBe(false);

    const franCookie = await t.login('fran@example.org', 'fran-pass-1');
    expect((await call('GET', `/api/staff/users/${fran.id}/photo`, franCookie)).statusCode).toBe(403);
    // the assurance says a photo is kept
    const session = await insertBooking(t.ctx.db, {
      date: '2026-03-20',
      userId: fran.id,
      schoolName: 'Photo School',
    });
    const page = await call('GET', `/api/staff/assurance?bookingId=${session.id}`, staff);
    expect(page.json().sessions[0].person.hasPhoto).toBe(true);
    // and its PDF carries the photo as a JPEG image
    const pdf = await call('GET', `/api/staff/assurance/pdf?bookingId=${session.id}`, staff);
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.rawPayload.toString('latin1')).toMatch(/\/Subtype \/Image[\s\S]*?\/Filter \/DCTDecode/);
    expect(pdfText(pdf.rawPayload)).toContain('Fran Field');
  });

  it('refuses a file that is not an image, whatever it is called, and keeps nothing', async () => {
    const staff = await at('2026-04-01T10:00:00Z');
    await t.ctx.db.delete(facilitatorPhotos).where(eq(facilitatorPhotos.userId, sam.id));
    // a text file renamed photo.jpg arrives as its bytes: the name never reaches the server
    const text = Buffer.from('%PDF-1.4 this is not a photo.jpg');
    const refused = await call('PUT', `/api/staff/users/${sam.id}/photo`, staff, {
      image: text.toString('base64'),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('The file is not a JPEG, PNG or WebP image');
    // JPEG's first bytes, then nothing an image decoder can read
    const fake = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 7)]);
    const broken = await call('PUT', `/api/staff/users/${sam.id}/photo`, staff, {
      image: fake.toString('base64'),
    });
    expect(broken.statusCode).toBe(400);
    // a PNG's bytes stated as JPEG by the caller are read as what they are (a PNG): accepted
    expect(
      await t.ctx.db.select().from(facilitatorPhotos).where(eq(facilitatorPhotos.userId, sam.id)),
    ).toEqual([]);
    expect((await call('GET', `/api/staff/users/${sam.id}/photo`, staff)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/staff/users/${sam.id}/photo`, staff)).statusCode).toBe(404);
  });

  it('is removed by staff, by erasure', async () => {
    const staff = await at('2026-04-01T10:00:00Z');
    const image = (await jpegWithExif()).toString('base64');
    expect((await call('PUT', `/api/staff/users/${sam.id}/photo`, staff, { image })).statusCode).toBe(200);
    expect((await call('DELETE', `/api/staff/users/${sam.id}/photo`, staff)).statusCode).toBe(204);
    expect((await call('PUT', `/api/staff/users/${sam.id}/photo`, staff, { image })).statusCode).toBe(200);
    expect(await erasePhoto(t.ctx.db, sam.id)).toBe(1);
    expect((await call('GET', `/api/staff/users/${sam.id}/photo`, staff)).statusCode).toBe(404);
  });
});

describe('the subject access archive', () => {
  it('holds one record of every kind about the person, and no secret', async () => {
    const db = t.ctx.db;
    const staff = await at('2026-05-01T10:00:00Z');
    const ola = await t.createUser({
      username: 'ola@example.org',
      displayName: 'Ola Marker',
      email: 'ola.marker@example.org',
      password: 'ola-pass-1',
    });
    await saveDbs(staff, ola.id, '005550007777', '2026-01-15');
    await insertDay(db, { userId: ola.id, date: '2026-05-20', status: 'limited', notes: 'DAY-MARKER' });
    await insertBooking(db, {
      date: '2026-05-21',
      userId: ola.id,
      schoolName: 'BOOKING-MARKER School',
    });
    const open = await insertBooking(db, { date: '2026-05-22', schoolName: 'OFFER-SCHOOL' });
    await insertOffer(db, {
      bookingId: open.id,
      userId: ola.id,
      replyBy: new Date('2026-05-10T12:00:00Z'),
      message: 'OFFER-MARKER',
    });
    await insertNote(db, { facilitatorId: ola.id, date: '2026-05-21', note: 'NOTE-MARKER about Ola' });
    await db.insert(reminderSends).values({
      userId: ola.id,
      month: '2026-06',
      sentOn: '2026-05-01',
      email: 'REMINDER-MARKER@example.org',
      trigger: 'staff',
    });
    await db.insert(safeguardingReminderSends).values({
      userId: ola.id,
      kind: 'expiry',
      sentOn: '2026-05-01',
      email: 'SGREMINDER-MARKER@example.org',
    });
    await db
      .insert(calendarFeeds)
      .values({ userId: ola.id, tokenHash: 'FEED-HASH-SECRET', tokenEncrypted: 'FEED-TOKEN-SECRET' });
    await db.insert(microsoftIdentities).values({
      userId: ola.id,
      issuer: 'https://login.example',
      tenantId: 'tenant-1',
      objectId: 'OBJECT-MARKER',
      signInName: 'ola@contoso.example',
    });
    await db.insert(passwordLinks).values({
      tokenHash: 'LINK-HASH-SECRET',
      userId: ola.id,
      purpose: 'reset',
      boundTo: 'BOUND-SECRET',
      expiresAt: new Date('2026-05-02T10:00:00Z'),
    });
    const olaCookie = await t.login('ola@example.org', 'ola-pass-1');
    const image = (await jpegWithExif()).toString('base64');
    expect((await call('PUT', `/api/staff/users/${ola.id}/photo`, staff, { image })).statusCode).toBe(200);

    const response = await call('GET', `/api/staff/users/${ola.id}/subject-access`, staff);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="subject-access-\d+-2026-05-01\.zip"$/,
    );
    const files = unzipSync(new Uint8Array(response.rawPayload));
    const text = (name: string) => strFromU8(files[name]!);
    expect(Object.keys(files).sort()).toEqual([
      'README.txt',
      'account.json',
      'availability.csv',
      'bookings.csv',
      'history.json',
      'notes.csv',
      'offers.csv',
      'photo.jpg',
      'reminders.csv',
      'safeguarding.json',
      'viewing-log.csv',
    ]);
    const account = JSON.parse(text('account.json'));
    expect(account).toMatchObject({
      username: 'ola@example.org',
      displayName: 'Ola Marker',
      email: 'ola.marker@example.org',
      hasPassword: true,
    });
    expect(account.calendarFeed.on).toBe(true);
    expect(account.microsoftSignIn[0].objectId).toBe('OBJECT-MARKER');
    expect(account.sessions.length).toBeGreaterThanOrEqual(1);
    expect(account.passwordLinks[0].purpose).toBe('reset');
    expect(text('availability.csv')).toContain('DAY-MARKER');
    expect(text('bookings.csv')).toContain('BOOKING-MARKER School');
    expect(text('offers.csv')).toContain('OFFER-MARKER');
    expect(text('offers.csv')).toContain('OFFER-SCHOOL');
    expect(text('notes.csv')).toContain('NOTE-MARKER about Ola');
    const safeguarding = JSON.parse(text('safeguarding.json'));
    expect(safeguarding.current.dbs.certificateNumber).toBe('005550007777');
    expect(
      safeguarding.earlierStates.map((s: { dbsCertificateLast4: string }) => s.dbsCertificateLast4),
    ).toEqual(['7777']);
    expect(text('reminders.csv')).toContain('REMINDER-MARKER@example.org');
    expect(text('reminders.csv')).toContain('SGREMINDER-MARKER@example.org');
    const history = JSON.parse(text('history.json'));
    expect(
      history.some(
        (entry: { after: { section?: string } | null }) => entry.after?.section === 'safeguarding',
      ),
    ).toBe(true);
    expect(text('viewing-log.csv')).toContain('Subject access archive');
    expect((await sharp(files['photo.jpg']!).metadata()).format).toBe('jpeg');
    for (const file of [
      'account.json',
      'availability.csv',
      'bookings.csv',
      'notes.csv',
      'offers.csv',
      'safeguarding.json',
      'history.json',
      'viewing-log.csv',
    ]) {
      expect(text('README.txt')).toContain(`- ${file}:`);
    }

    // no secret and nobody else's details
    const [row] = await db.select().from(users).where(eq(users.id, ola.id));
    const sessionIds = (
      await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, ola.id))
    ).map((s) => s.id);
    const everything = Object.entries(files)
      .filter(([name]) => name !== 'photo.jpg')
      .map(([, bytes]) => strFromU8(bytes))
      .join('\n');
    for (const secret of [
      row!.passwordHash!,
      ...sessionIds,
      olaCookie.split('=')[1]!,
      'FEED-HASH-SECRET',
      'FEED-TOKEN-SECRET',
      'LINK-HASH-SECRET',
      'BOUND-SECRET',
    ]) {
      expect(everything).not.toContain(secret);
    }
    expect(everything).not.toContain('Sam Stone');
    expect(everything).not.toContain('Fran Field');
  });

  it('a person downloads their own, and only their own', async () => {
    await at('2026-05-01T10:00:00Z');
    const franCookie = await t.login('fran@example.org', 'fran-pass-1');
    const response = await call('GET', '/api/account/subject-access', franCookie);
    expect(response.statusCode, response.body).toBe(200);
    const files = unzipSync(new Uint8Array(response.rawPayload));
    expect(JSON.parse(strFromU8(files['account.json']!)).username).toBe('fran@example.org');
    expect((await call('GET', `/api/staff/users/${sam.id}/subject-access`, franCookie)).statusCode).toBe(403);
    expect((await call('GET', '/api/account/subject-access', '')).statusCode).toBe(401);
  });
});
