import { afterEach, describe, expect, it } from 'vitest';
import { browserToday } from './browser-today';

describe('browserToday', () => {
  const original = process.env.TZ;
  afterEach(() => {
    process.env.TZ = original;
  });

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
