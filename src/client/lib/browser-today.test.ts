import { afterEach, describe, expect, it } from 'vitest';
import { browserClockTime, browserToday } from './browser-today';

// every test sets the zone under test; the worker's own zone comes back after each
const originalZone = process.env.TZ;
afterEach(() => {
  // an unset variable must stay unset: assigning undefined stores the text "undefined"
  if (originalZone === undefined) delete process.env.TZ;
  else process.env.TZ = originalZone;
});

describe('browserToday', () => {
  it("is the day in the browser's own zone, where UTC is still on the day before", () => {
    process.env.TZ = 'Pacific/Kiritimati'; // UTC+14
    const earlyMorning = new Date(Date.UTC(2026, 0, 4, 18, 30)); // 08:30 on 5 January there
    expect(browserToday(earlyMorning)).toBe('2026-01-05');
  });

  it("is the day in the browser's own zone, where UTC is already on the day after", () => {
    process.env.TZ = 'Pacific/Pago_Pago'; // UTC−11
    const lateEvening = new Date(Date.UTC(2026, 11, 31, 10, 0)); // 23:00 on 30 December there
    expect(browserToday(lateEvening)).toBe('2026-12-30');
  });

  it('pads months and days to two digits', () => {
    process.env.TZ = 'Europe/London';
    expect(browserToday(new Date(Date.UTC(2027, 1, 3, 12)))).toBe('2027-02-03');
  });
});

describe('browserClockTime', () => {
  it("reads the browser's own zone, not UTC", () => {
    process.env.TZ = 'Asia/Kolkata'; // UTC+5:30
    expect(browserClockTime(new Date(Date.UTC(2026, 5, 1, 8, 5)))).toBe('1:35 PM');
  });

  it('writes midnight and noon as the portal does', () => {
    process.env.TZ = 'Europe/London';
    expect(browserClockTime(new Date(Date.UTC(2026, 0, 10, 0, 7)))).toBe('12:07 AM');
    expect(browserClockTime(new Date(Date.UTC(2026, 0, 10, 12, 0)))).toBe('12:00 PM');
  });
});
