/**
 * Times of day as SharePoint hands them over. The lists are typed by people: "9:00", "010:00",
 * "09:00:00" and "9.30" all occur, and kept raw they sort wrongly ("010:00" before "08:00") and show
 * oddly. They are stored and compared as "HH:mm".
 */

// hours may carry extra leading zeros; seconds are dropped; "." is a common separator in the UK
const LOOSE_TIME = /^0*(\d{1,2})[:.](\d{2})(?:[:.]\d{2})?\s*(am|pm)?$/i;

/** "010:00" → "10:00", "9.30" → "09:30", "2:15 pm" → "14:15"; anything that is not a time → null. */
export function normaliseTimeOfDay(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const match = LOOSE_TIME.exec(value.trim());
  if (!match) return null;
  let hour = Number(match[1]);
  const minute = Number(match[2]);
  const meridiem = match[3]?.toLowerCase();
  if (meridiem) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (meridiem === 'pm' ? 12 : 0);
  }
  if (hour > 23 || minute > 59) return null;
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

/**
 * A time as read from SharePoint for storing: the normal form when it is a time, the text as it came
 * when it is not (nothing a person typed is thrown away; the screens show it as an unknown time).
 */
export function storableTimeOfDay(value: string | null): string | null {
  if (value === null) return null;
  return normaliseTimeOfDay(value) ?? value;
}
