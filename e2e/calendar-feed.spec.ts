import { type APIRequestContext, request } from '@playwright/test';
import ICAL from 'ical.js';
import { bookingFields } from './calendar-fixtures';
import { BASE_URL } from './constants';
import { addDays, monthWeekdays, today } from './dates';
import { addSharePointItem, withSharePointLock } from './emulator';
import {
  expect as baseExpect,
  checkScreen,
  loginAsFacilitator,
  loginAsStaff,
  staffApi,
  test,
} from './fixtures';

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 150_000 });

/**
 * The personal calendar feed, as a facilitator meets it on the settings page: turn it on,
 * copy the link, and the link, fetched with no session like a calendar app does, parses with ical.js
 * and holds their bookings only; a new link kills the old one; turning off kills both.
 */

const TODAY = today();
// a weekday a little ahead, inside the feed's range
const DAY = monthWeekdays(addDays(TODAY, 35))[3]!;
const HOSTILE = 'St Mark\'s, "Upper"; School \\ Annex';

interface Person {
  id: number;
  username: string;
  password: string;
  freelancerId: string;
}

async function person(api: APIRequestContext, name: string, tag: string): Promise<Person> {
  const username = `feed-${name}-${tag}@example.org`;
  const freelancerId = `FEED-${name}-${tag}`.toUpperCase();
  const res = await api.post('/api/staff/users', {
    data: {
      username,
      password: 'feed-pass-123',
      displayName: `Feed ${name}`,
      email: username,
      freelancerId,
      role: 'facilitator',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return { id: ((await res.json()) as { id: number }).id, username, password: 'feed-pass-123', freelancerId };
}

/** Fetches a feed URL the way a calendar app does: no cookies, nothing but the URL. */
async function fetchFeed(url: string) {
  const app = await request.newContext();
  try {
    const res = await app.get(url);
    return { status: res.status(), type: res.headers()['content-type'], body: await res.text() };
  } finally {
    await app.dispose();
  }
}

function events(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  return calendar.getAllSubcomponents('vevent').map((component) => new ICAL.Event(component));
}

let api: APIRequestContext;
let me: Person;
let other: Person;

// biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a hook asks for from this pattern
test.beforeAll(async ({}, testInfo) => {
  api = await staffApi();
  const tag = `${testInfo.project.name}-${Date.now()}`;
  me = await person(api, 'mia', tag);
  other = await person(api, 'olu', tag);
  await withSharePointLock(async () => {
    await addSharePointItem(
      'Bookings',
      bookingFields({
        freelancerId: me.freelancerId,
        date: DAY,
        title: 'Print workshop',
        startTime: '09:30',
        endTime: '11:30',
        schoolName: HOSTILE,
        schoolAddress: '2 Mill Lane, York',
        schoolPostcode: 'YO1 7AA',
        program: 'Printmaking',
      }),
    );
    await addSharePointItem(
      'Bookings',
      bookingFields({
        freelancerId: other.freelancerId,
        date: DAY,
        title: 'Other',
        schoolName: 'OTHER-SCHOOL',
        program: 'Other',
      }),
    );
    const refreshed = await api.post('/api/staff/bookings/refresh');
    expect(refreshed.status(), await refreshed.text()).toBe(200);
  });
});

test.afterAll(async () => {
  for (const p of [me, other]) if (p) await api.delete(`/api/staff/users/${p.id}`);
  await api.dispose();
});

test('turn the feed on, copy the link, subscribe to it, get a new link, turn it off', async ({
  page,
  context,
}, testInfo) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE_URL });
  await loginAsFacilitator(page, me);
  await page.goto('/settings');
  const card = page.getByTestId('calendar-feed');
  await expect(card.getByRole('heading', { name: 'Calendar feed' })).toBeVisible();
  await expect(card.getByText('Your calendar feed is off.')).toBeVisible();
  await card.locator('summary', { hasText: 'Outlook' }).click();
  await expect(card.getByText('Choose Add calendar, then Subscribe from web.')).toBeVisible();
  await checkScreen(page, testInfo, 'calendar-feed-off');

  await card.getByRole('button', { name: 'Turn on calendar feed' }).click();
  const link = card.getByRole('textbox', { name: 'Your calendar feed link' });
  await expect(link).toHaveValue(new RegExp(`^${BASE_URL}/api/calendar-feed/[A-Za-z0-9_-]{43}\\.ics$`));
  const url = await link.inputValue();

  await card.getByRole('button', { name: 'Copy link' }).click();
  await expect(card.getByRole('status').filter({ hasText: 'Link copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  await expect(card.getByRole('link', { name: 'Open in Apple Calendar' })).toHaveAttribute(
    'href',
    url.replace(/^http:/, 'webcal:'),
  );
  await checkScreen(page, testInfo, 'calendar-feed-on');

  // what a calendar app gets: my booking, read back by ical.js, and nobody else's
  const feed = await fetchFeed(url);
  expect(feed.status).toBe(200);
  expect(feed.type).toBe('text/calendar; charset=utf-8');
  const [event, ...rest] = events(feed.body);
  expect(rest).toEqual([]);
  expect(event!.summary).toBe(`Printmaking – ${HOSTILE}`);
  expect(event!.location).toBe(`${HOSTILE}, 2 Mill Lane, York, YO1 7AA`);
  expect(event!.startDate.toString()).toBe(`${DAY}T09:30:00`);
  expect(event!.startDate.zone?.tzid).toBe('Europe/London');
  expect(feed.body).not.toContain('OTHER-SCHOOL');

  // a new link: confirmed first, then the old one is dead at once
  await card.getByRole('button', { name: 'Get a new link' }).click();
  const rotate = page.getByRole('alertdialog', { name: 'Get a new link?' });
  await expect(rotate).toContainText('The current link stops working at once.');
  await checkScreen(page, testInfo, 'calendar-feed-rotate');
  await rotate.getByRole('button', { name: 'Get new link' }).click();
  await expect(rotate).toBeHidden();
  await expect(link).not.toHaveValue(url);
  const newUrl = await link.inputValue();
  expect((await fetchFeed(url)).status).toBe(404);
  expect((await fetchFeed(newUrl)).status).toBe(200);

  // turning off: confirmed, then neither link works
  await card.getByRole('button', { name: 'Turn off' }).click();
  const off = page.getByRole('alertdialog', { name: 'Turn off your calendar feed?' });
  await off.getByRole('button', { name: 'Turn off' }).click();
  await expect(card.getByText('Your calendar feed is off.')).toBeVisible();
  expect((await fetchFeed(newUrl)).status).toBe(404);
  const unknown = await fetchFeed(`${BASE_URL}/api/calendar-feed/${'A'.repeat(43)}.ics`);
  expect(unknown.status).toBe(404);
});

test('staff see no calendar feed on the settings page', async ({ page }) => {
  await loginAsStaff(page);
  await page.goto('/settings');
  await expect(page.getByRole('heading', { name: 'SharePoint', exact: true, level: 2 })).toBeVisible();
  await expect(page.getByTestId('calendar-feed')).toHaveCount(0);
});
