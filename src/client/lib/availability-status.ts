import type { AvailabilityStatus } from '@shared/schemas/availability';

/** The name of each status, as every screen shows it. */
export const STATUS_LABELS: Record<AvailabilityStatus, string> = {
  available: 'Available',
  limited: 'Limited Availability',
  unavailable: 'Unavailable',
};

/** The legend's colour of each status: the calendar's bars, the pattern preview's dots. */
export const STATUS_COLOUR_CLASSES: Record<AvailabilityStatus, string> = {
  available: 'bg-success',
  limited: 'bg-warning',
  unavailable: 'bg-destructive',
};
