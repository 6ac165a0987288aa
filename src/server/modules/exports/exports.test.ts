/**
 * Exports, read back with parsers written elsewhere: fast-csv (exceljs' own CSV parser) for CSV and
 * exceljs for .xlsx.
 */
import { parseString } from '@fast-csv/parse';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBookings } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { CELLS_PER_BATCH, csvStream, type ExportRow, STAFF_COLUMNS, staffRows, xlsxStream } from './service';

let t: TestApp;
let ann: Awaited<ReturnType<TestApp['createUser']>>;
let ben: Awaited<ReturnType<TestApp['createUser']>>;
let cat: Awaited<ReturnType<TestApp['createUser']>>;
let annCookie: string;
let benCookie: string;
let staffCookie: string;

// Monday 2 to Sunday 8 March 2026: five weekdays, then a weekend
const FROM = '2026-03-02';
const TO = '2026-03-08';
const HOSTILE_NOTES = 'Call first, then "confirm"\r\nSecond line';
const FORMULAS = ['=HYPERLINK("http://evil.example","x")', '+1+1', '-2+3', '@SUM(A1)', '\tTAB', '\rCR'];

beforeAll(async () => {
  t = await createTestApp();
  ann = await t.createUser({
    username: 'ann@example.org',
    displayName: 'Ann Artist',
    email: 'ann@example.org',
    area: 'North',
    password: 'ann-pass-1',
  });
  ben = await t.createUser({
    username: 'ben@example.org',
    displayName: '=Ben',
    area: 'South',
    password: 'ben-pass-1',
  });
  cat = await t.createUser({ username: 'cat@example.org', displayName: 'cat' });
  annCookie = await t.login('ann@example.org', 'ann-pass-1');
  benCookie = await t.login('ben@example.org', 'ben-pass-1');
  staffCookie = await t.loginStaff();

  const save = async (cookie: string, payload: Record<string, unknown>) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/availability',
      headers: { cookie },
      payload,
    });
    expect(response.statusCode, response.body).toBe(200);
  };
  await save(annCookie, {
    date: '2026-03-02',
    status: 'limited',
    startTime: '09:00',
    endTime: '12:00',
    notes: HOSTILE_NOTES,
  });
  await save(annCookie, { date: '2026-03-03', status: 'unavailable', notes: FORMULAS[0] });
  // a weekend day with availability is exported; an empty weekend day is not
  await save(annCookie, { date: '2026-03-07', status: 'available', notes: FORMULAS[5] });
  await save(benCookie, { date: '2026-03-02', status: 'available', notes: '@ben' });
  for (const [i, formula] of FORMULAS.slice(1, 5).entries()) {
    await save(benCookie, { date: `2026-03-0${3 + i}`, status: 'available', notes: formula });
  }
  await insertBookings(t.ctx.db, [
    {
      userId: ann.id,
      sharePointId: 'x1',
      date: '2026-03-04',
      startTime: '10:00',
      endTime: '11:30',
      program: 'Dance',
      schoolName: 'Hillside, "Primary"',
    },
    { userId: ann.id, sharePointId: 'x2', date: '2026-03-04', program: 'Art', schoolName: 'Oak' },
    {
      userId: ben.id,
      sharePointId: 'x3',
      date: '2026-03-05',
      program: 'BEN-BOOKING',
      schoolName: 'Ben School',
    },
  ]);
  await t.app.inject({
    method: 'POST',
    url: '/api/staff/notes',
    headers: { cookie: staffCookie },
    payload: { facilitatorId: ann.id, date: '2026-03-02', note: 'STAFF-NOTE-SECRET', priority: 'urgent' },
  });
});
afterAll(() => t.close());

const get = (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

function parseCsv(text: string): Promise<string[][]> {
  return new Promise((resolve, reject) => {
    const rows: string[][] = [];
    parseString<string[], string[]>(text, { headers: false })
      .on('data', (row: string[]) => rows.push(row))
      .on('error', reject)
      .on('end', () => resolve(rows));
  });
}

async function csvOf(url: string, cookie: string) {
  const response = await get(url, cookie);
  expect(response.statusCode, response.body).toBe(200);
  const raw = response.rawPayload;
  expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = raw.subarray(3).toString('utf8');
  const [header, ...rows] = await parseCsv(text);
  return { response, text, header: header!, rows };
}

const staffUrl = (query: Record<string, string | string[]> = {}) => {
  const params = new URLSearchParams({ from: FROM, to: TO });
  for (const [key, value] of Object.entries(query)) {
    params.delete(key);
    for (const item of [value].flat()) params.append(key, item);
  }
  return `/api/staff/export?${params}`;
};

describe('who may export', () => {
  it('staff export: signed out 401, facilitators 403, staff 200', async () => {
    for (const format of ['csv', 'xlsx']) {
      const url = staffUrl({ format });
      expect((await get(url)).statusCode).toBe(401);
      expect((await get(url, annCookie)).statusCode).toBe(403);
      expect((await get(url, benCookie)).statusCode).toBe(403);
      expect((await get(url, staffCookie)).statusCode).toBe(200);
    }
  });

  it("own export: signed out 401; one's own 200; naming anybody else 403, staff included", async () => {
    const own = `/api/availability/export?from=${FROM}&to=${TO}`;
    expect((await get(own)).statusCode).toBe(401);
    expect((await get(own, annCookie)).statusCode).toBe(200);
    expect((await get(`${own}&userId=${ann.id}`, annCookie)).statusCode).toBe(200);
    expect((await get(`${own}&userId=${ann.id}`, benCookie)).statusCode).toBe(403);
    expect((await get(`${own}&userId=${ann.id}`, staffCookie)).statusCode).toBe(403);
  });

  it('refuses bad input with 400 and a message', async () => {
    const bad = [
      staffUrl({ format: 'pdf' }),
      staffUrl({ from: '2026-03-10', to: '2026-03-01' }),
      staffUrl({ from: '2025-01-01', to: '2026-01-02' }),
      staffUrl({ from: '2026-02-30' }),
      staffUrl({ exclude: 'abc' }),
      staffUrl({ exclude: '1,,2' }),
      staffUrl({ area: 'x'.repeat(101) }),
      '/api/staff/export?format=csv',
    ];
    for (const url of bad) {
      const response = await get(url, staffCookie);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().message).toBeTruthy();
    }
    const tooLong = await get('/api/availability/export?from=2025-01-01&to=2026-01-02', annCookie);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toBe('An export can cover at most 366 days');
    // a whole leap year is fine
    expect((await get('/api/availability/export?from=2028-01-01&to=2028-12-31', annCookie)).statusCode).toBe(
      200,
    );
  });
});

describe('staff CSV', () => {
  it('is UTF-8 with a BOM, RFC 4180, with a sensible filename', async () => {
    const { response, text, header } = await csvOf(staffUrl(), staffCookie);
    expect(response.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="facilitator-schedule_${FROM}_to_${TO}.csv"`,
    );
    expect(header).toEqual([
      'Date',
      'Facilitator',
      'Email',
      'Area',
      'Status',
      'Start',
      'End',
      'Availability notes',
      'Bookings',
    ]);
    // every record ends with CRLF; a line break inside a quoted field is kept as it was
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text).toContain('"Call first, then ""confirm""\r\nSecond line"');
  });

  it('has one row per facilitator per weekday (weekend days only with data), staff left out, sorted like the grid', async () => {
    const { rows } = await csvOf(staffUrl(), staffCookie);
    const names = [...new Set(rows.map((r) => r[1]))];
    // "=Ben" is neutralised; sorted case-insensitively by name as the grid shows them
    expect(names).toEqual(["'=Ben", 'Ann Artist', 'cat']);
    expect(rows.filter((r) => r[1] === 'Ann Artist').map((r) => r[0])).toEqual([
      '2026-03-02',
      '2026-03-03',
      '2026-03-04',
      '2026-03-05',
      '2026-03-06',
      '2026-03-07',
    ]);
    expect(rows.filter((r) => r[1] === 'cat')).toHaveLength(5);
    expect(rows.some((r) => r[2] === 'staff@example.org')).toBe(false);
    const annMonday = rows.find((r) => r[1] === 'Ann Artist' && r[0] === '2026-03-02')!;
    expect(annMonday).toEqual([
      '2026-03-02',
      'Ann Artist',
      'ann@example.org',
      'North',
      'Limited Availability',
      '9:00 AM',
      '12:00 PM',
      HOSTILE_NOTES,
      '',
    ]);
    const annWednesday = rows.find((r) => r[1] === 'Ann Artist' && r[0] === '2026-03-04')!;
    expect(annWednesday[4]).toBe('Not set');
    expect(annWednesday[8]).toBe('10:00 AM – 11:30 AM Dance – Hillside, "Primary"; All day Art – Oak');
    const catRow = rows.find((r) => r[1] === 'cat')!;
    expect(catRow[2]).toBe('cat@example.org');
    expect(catRow[3]).toBe('');
  });

  it('never carries staff notes', async () => {
    const { text } = await csvOf(staffUrl(), staffCookie);
    expect(text).not.toContain('STAFF-NOTE-SECRET');
  });

  it('neutralises every value a spreadsheet would run as a formula', async () => {
    const { rows } = await csvOf(staffUrl(), staffCookie);
    const cells = rows.flat();
    for (const formula of FORMULAS) expect(cells, formula).toContain(`'${formula}`);
    expect(cells).toContain("'@ben");
    for (const cell of cells) expect(cell, cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('applies the grid filters: areas (and "no area") and facilitators left out', async () => {
    const names = async (query: Record<string, string | string[]>) => [
      ...new Set((await csvOf(staffUrl(query), staffCookie)).rows.map((r) => r[1])),
    ];
    expect(await names({ area: 'North' })).toEqual(['Ann Artist']);
    expect(await names({ area: ['South', '__no_area__'] })).toEqual(["'=Ben", 'cat']);
    expect(await names({ exclude: `${ben.id},${cat.id}` })).toEqual(['Ann Artist']);
    expect(await names({ area: 'Nowhere' })).toEqual([]);
    expect(await names({ exclude: String(ann.id), area: 'North' })).toEqual([]);
  });
});

describe('staff .xlsx', () => {
  it('is a workbook exceljs reads back, with real dates and neutralised text', async () => {
    const response = await get(staffUrl({ format: 'xlsx' }), staffCookie);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="facilitator-schedule_${FROM}_to_${TO}.xlsx"`,
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe('Schedule');
    const values = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
    expect(values(1)).toEqual([
      'Date',
      'Facilitator',
      'Email',
      'Area',
      'Status',
      'Start',
      'End',
      'Availability notes',
      'Bookings',
    ]);
    const csv = await csvOf(staffUrl(), staffCookie);
    expect(sheet.actualRowCount).toBe(csv.rows.length + 1);
    const rows = Array.from({ length: csv.rows.length }, (_, i) => values(i + 2));
    const annMonday = rows.find((r) => r[1] === 'Ann Artist')!;
    expect(annMonday[0]).toEqual(new Date('2026-03-02T00:00:00Z'));
    // times are times of day a spreadsheet computes with (exceljs reads a time cell back as that time
    // on Excel's day 0), shown as people read them
    expect(annMonday.slice(5, 7)).toEqual([
      new Date('1899-12-30T09:00:00Z'),
      new Date('1899-12-30T12:00:00Z'),
    ]);
    expect(sheet.getColumn(6).numFmt).toBe('h:mm AM/PM');
    // line breaks inside a cell are Excel's LF
    expect(annMonday[7]).toBe(HOSTILE_NOTES.replace('\r\n', '\n'));
    const texts = rows.flatMap((r) => r.slice(1)).filter((v): v is string => typeof v === 'string');
    for (const formula of FORMULAS) expect(texts).toContain(`'${formula.replace('\r', '\n')}`);
    for (const text of texts) expect(text).not.toMatch(/^[=+\-@\t\r\n]/);
    // no cell is a formula
    sheet.eachRow((row) => {
      row.eachCell((cell) => expect(cell.type).not.toBe(ExcelJS.ValueType.Formula));
    });
  });
});

describe('own CSV', () => {
  it("holds the caller's own days and bookings only", async () => {
    const { response, header, rows, text } = await csvOf(
      `/api/availability/export?from=${FROM}&to=${TO}`,
      annCookie,
    );
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="my-availability_${FROM}_to_${TO}.csv"`,
    );
    expect(header).toEqual(['Date', 'Status', 'Start', 'End', 'Availability notes', 'Bookings']);
    expect(rows.map((r) => r[0])).toEqual([
      '2026-03-02',
      '2026-03-03',
      '2026-03-04',
      '2026-03-05',
      '2026-03-06',
      '2026-03-07',
    ]);
    expect(rows[1]).toEqual(['2026-03-03', 'Unavailable', '', '', `'${FORMULAS[0]}`, '']);
    for (const secret of ['BEN-BOOKING', '@ben', 'STAFF-NOTE-SECRET']) expect(text).not.toContain(secret);
  });
});

describe('size', () => {
  it('exports 1,000 facilitators × a month in bounded batches', async () => {
    await t.ctx.db.execute(sql`
      insert into users (username, username_canonical, display_name, area)
      select 'bulk-' || n || '@example.org', 'bulk-' || n || '@example.org', 'Bulk ' || lpad(n::text, 4, '0'), 'Bulk'
      from generate_series(1, 1000) as n`);
    await t.ctx.db.execute(sql`
      insert into availability (user_id, date, status, notes)
      select u.id, d::date, 'available', 'ok'
      from users u cross join generate_series('2026-03-02'::date, '2026-03-31'::date, '1 day') as d
      where u.area = 'Bulk' and extract(isodow from d) < 6`);
    const started = performance.now();
    const { rows } = await csvOf(
      staffUrl({ from: '2026-03-01', to: '2026-03-31', area: 'Bulk' }),
      staffCookie,
    );
    const seconds = (performance.now() - started) / 1000;
    expect(rows).toHaveLength(1000 * 22);
    expect(rows[0]![1]).toBe('Bulk 0001');
    expect(rows.at(-1)![1]).toBe('Bulk 1000');
    expect(seconds).toBeLessThan(30);
    const xlsx = await get(
      staffUrl({ from: '2026-03-01', to: '2026-03-31', area: 'Bulk', format: 'xlsx' }),
      staffCookie,
    );
    expect(xlsx.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets[0]!.actualRowCount).toBe(1000 * 22 + 1);

    // read and written a batch at a time: no batch holds more than CELLS_PER_BATCH rows, each
    // comes before the next is read, and together they are the whole export in the grid's order
    const sizes: number[] = [];
    let previous = '';
    for await (const batch of staffRows(
      t.ctx.db,
      { from: '2026-03-01', to: '2026-03-31' },
      { areas: ['Bulk'] },
    )) {
      sizes.push(batch.length);
      expect(batch[0]!.name > previous).toBe(true);
      previous = batch.at(-1)!.name;
    }
    expect(sizes.length).toBeGreaterThan(1);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(CELLS_PER_BATCH);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(1000 * 22);

    // the CSV leaves in pieces as the batches are read, not as one answer built whole
    const streamed = await t.app.inject({
      url: staffUrl({ from: '2026-03-01', to: '2026-03-31', area: 'Bulk' }),
      headers: { cookie: staffCookie },
      payloadAsStream: true,
    });
    let chunks = 0;
    for await (const _chunk of streamed.stream()) chunks++;
    expect(chunks).toBeGreaterThan(1);
  }, 120_000);
});

describe('no cell reads as a formula, in comma or semicolon locales', () => {
  // OWASP CSV injection: a formula starts at the cell's first character after spaces and quotes, or
  // after any character a reader may split cells at.
  const HOSTILE = [
    ';=1+1',
    ' =1+1',
    '  -2+3',
    ' +1',
    '"=1+1"',
    "'=1+1",
    '\u00a0=1+1',
    '＝1+1',
    'a;=1+1',
    'a,=1+1',
    'a; =1+1',
    'a;"=1+1',
    'x\t=1+1',
    'x|=1+1',
    'line\n=1+1',
    ';@SUM(A1)',
    ' \tTAB',
    '=HYPERLINK("http://evil.example","x")',
  ];
  /**
   * A cell no reader runs: it does not start as a formula (spaces and quotes skipped, an apostrophe
   * not), nor does any piece a careless reader could split it into at a separator; and nothing but
   * apostrophes was added to what was typed.
   */
  const expectSafe = (cell: string, typed: string) => {
    for (const piece of cell.split(/[,;\t\r\n|]/))
      expect(piece, JSON.stringify(cell)).not.toMatch(/^[\s"\u00a0\u3000]*[=+\-@＝＋－＠]/u);
    if (/^[\s"'\u00a0]*[\t\r]/.test(typed)) expect(cell.startsWith("'"), JSON.stringify(cell)).toBe(true);
    expect(cell.replaceAll("'", '')).toBe(typed.replaceAll("'", ''));
  };
  const rows: ExportRow[] = HOSTILE.map((value, i) => ({
    date: `2026-03-${String(i + 1).padStart(2, '0')}`,
    name: value,
    email: `${value}@example.org`,
    area: value,
    status: 'Available',
    start: '',
    end: '',
    notes: value,
    bookings: value,
  }));
  async function* batches() {
    yield rows;
  }
  const read = async (stream: NodeJS.ReadableStream) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
    return Buffer.concat(chunks);
  };

  it('CSV: no hostile cell, nor any piece of one split at a separator, starts a formula; every field is quoted', async () => {
    const text = (await read(csvStream(STAFF_COLUMNS, batches()))).subarray(3).toString('utf8');
    const [, ...parsed] = await parseCsv(text);
    expect(parsed).toHaveLength(HOSTILE.length);
    for (const [i, row] of parsed.entries()) {
      expectSafe(row[1]!, HOSTILE[i]!);
      expectSafe(row[7]!, HOSTILE[i]!);
    }
    // Rebuilt with every field quoted, the file is the same: a semicolon (or tab) inside a cell is
    // always within quotes, so a semicolon-locale reader never splits a cell there.
    const quoted = (cell: string) => `"${cell.replaceAll('"', '""')}"`;
    const header = STAFF_COLUMNS.map((c) => quoted(c.header)).join(',');
    const body = parsed.map((row) => `${row.map(quoted).join(',')}\r\n`).join('');
    expect(text).toBe(`${header}\r\n${body}`);
  });

  it('xlsx: no hostile text cell, nor a piece of one, starts a formula, and none is a formula cell', async () => {
    const buffer = await read(xlsxStream(STAFF_COLUMNS, batches(), 'Schedule', () => {}));
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.actualRowCount).toBe(HOSTILE.length + 1);
    for (let i = 0; i < HOSTILE.length; i++) {
      const values = (sheet.getRow(i + 2).values as unknown[]).slice(1);
      expectSafe(String(values[1]), HOSTILE[i]!);
      expectSafe(String(values[7]), HOSTILE[i]!.replace(/\r\n?/g, '\n'));
    }
    sheet.eachRow((row) => {
      row.eachCell((cell) => expect(cell.type).not.toBe(ExcelJS.ValueType.Formula));
    });
  });

  /** A facilitator with a name and area of their own and the day FROM saved, with this note, by them. */
  async function personWithDay(
    account: { username: string; displayName: string; area: string },
    status: string,
    notes: string,
  ) {
    const user = await t.createUser({ ...account, password: 'person-pass-1' });
    const cookie = await t.login(user.username, user.password);
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/availability',
      headers: { cookie },
      payload: { date: FROM, status, notes },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    return { user, cookie };
  }

  it('the staff and own exports neutralise stored text with a separator before a formula', async () => {
    const { user: dan, cookie: danCookie } = await personWithDay(
      { username: 'dan@example.org', displayName: 'Dan;=1+1', area: 'East, =2+2' },
      'available',
      'Call first; =HYPERLINK("http://evil.example")',
    );
    const staff = await csvOf(staffUrl(), staffCookie);
    const danRow = staff.rows.find((r) => r[1] === "Dan;'=1+1" && r[0] === FROM)!;
    expect(danRow[3]).toBe("East, '=2+2");
    expect(danRow[7]).toBe('Call first; \'=HYPERLINK("http://evil.example")');
    const own = await csvOf(`/api/availability/export?from=${FROM}&to=${TO}&userId=${dan.id}`, danCookie);
    expect(own.rows.flat()).toContain('Call first; \'=HYPERLINK("http://evil.example")');
  });

  it('no cell a semicolon-locale spreadsheet could split a field into starts with a formula', async () => {
    await personWithDay(
      { username: 'eve@example.org', displayName: 'Eve', area: 'West;@SUM(1+1);  -3|+4' },
      'limited',
      'ok,@cmd|"=A1";\t+1\n-2, ＝3',
    );
    const response = await get(staffUrl(), staffCookie);
    const line = response.body.split('\r\n').find((l) => l.includes('"Eve"'))!;
    // split the line at every separator, quotes or not, as a careless reader would
    const pieces = line.split(/[,;\t\n|]/).map((piece) => piece.replace(/^[\s"]+/, ''));
    for (const piece of pieces) expect(piece, line).not.toMatch(/^[=+\-@＝＋－＠]/);
    // read properly, the cells still say what was typed, an apostrophe before each sign
    const { rows } = await csvOf(staffUrl(), staffCookie);
    const eveRow = rows.find((r) => r[1] === 'Eve' && r[0] === FROM)!;
    expect(eveRow[3]).toBe("West;'@SUM(1+1);  '-3|'+4");
    expect(eveRow[7]).toBe("ok,'@cmd|\"'=A1\";\t'+1\n'-2, '＝3");
  });
});
