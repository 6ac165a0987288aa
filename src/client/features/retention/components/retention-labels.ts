import type { RetentionKind } from '@shared/schemas/retention';

/** What each kind of a retention run removes, as staff read it. */
export const RETENTION_KIND_LABELS: Record<RetentionKind, string> = {
  certificateNumbers: 'Leavers’ certificate numbers cut to the last four digits',
  leaversAnonymised: 'Leavers anonymised',
  availability: 'Availability days',
  offers: 'Offers',
  notes: 'Notes',
  reminderSends: 'Reminders sent',
  history: 'History entries',
  certificateViews: 'Certificate viewing log entries',
  recordVersions: 'Earlier states of safeguarding records',
  photos: 'Leavers’ photos',
};
