// Availability values the pages need without the schemas that use them: a schema module builds its
// zod objects when it is imported, so importing one constant from it puts zod (about 87 KB
// minified) into the page's file. The availability schema re-exports these for the server.

export const AVAILABILITY_STATUSES = ['available', 'limited', 'unavailable'] as const;
export type AvailabilityStatus = (typeof AVAILABILITY_STATUSES)[number];

export const BOOKED_DAY_MESSAGE =
  'This date has confirmed bookings and cannot be modified to maintain data integrity.';

/** The longest note a day may carry. */
export const AVAILABILITY_NOTES_MAX = 2000;
