import {
  addDays,
  dayOfWeek,
  MONTH_NAMES,
  parseDateString,
  startOfWeekMonday,
  WEEKDAY_NAMES,
} from '@shared/calendar';
import { dateString } from '@shared/schemas/common';
import type { PatternFrequency } from '@shared/schemas/patterns';

/** A school term is about 12 weeks: the dialog's end date starts that far after today. */
export const DEFAULT_PATTERN_WEEKS = 12;

export const FREQUENCY_LABELS: Record<PatternFrequency, string> = {
  1: 'Every week',
  2: 'Every 2 weeks',
  4: 'Every 4 weeks',
};

/** "Thursday, 26 November 2026", from the date string alone (no time zone can shift it). */
export function formatLongDate(date: string): string {
  const { year, month, day } = parseDateString(date);
  return `${WEEKDAY_NAMES[dayOfWeek(date)]}, ${day} ${MONTH_NAMES[month - 1]} ${year}`;
}

export function defaultEndDate(startDate: string): string {
  return addDays(startDate, DEFAULT_PATTERN_WEEKS * 7 - 1);
}

/**
 * How the weeks are counted, in words, so nobody has to guess which fortnight they get:
 * "Week 1 is the week of Monday 23 November 2026; the pattern repeats in weeks 1, 3, 5 …".
 */
export function anchorExplanation(startDate: string, everyWeeks: PatternFrequency): string {
  // the schema's years only: the Monday before 0001-01-01 is outside what dates can be
  if (!dateString.safeParse(startDate).success) return '';
  if (everyWeeks === 1) return `Repeats every week from ${formatLongDate(startDate)}.`;
  const weeks = [1, 1 + everyWeeks, 1 + 2 * everyWeeks].join(', ');
  const monday = formatLongDate(startOfWeekMonday(startDate));
  return `Week 1 is the week of the start date (beginning ${monday}); the pattern repeats in weeks ${weeks} and so on. Days before the start date are not changed.`;
}

export const plural = (count: number, one: string, many: string) => (count === 1 ? one : many);
