import type { MyOffer, StaffOffer } from '@shared/schemas/offers';

/**
 * An offer of the Clay workshop at Riverside Primary on 10 June 2099 (session 9), far enough ahead
 * that a reply-by date is always before it; sent, unanswered, unless given. A test names only what it
 * is about.
 */
export function anOffer(values: Partial<MyOffer> = {}): MyOffer {
  return {
    id: 4,
    bookingId: 9,
    state: 'sent',
    message: '',
    replyBy: '2099-06-01T16:00:00.000Z',
    createdAt: '2099-05-01T09:00:00.000Z',
    respondedAt: null,
    declineReason: '',
    endedReason: null,
    date: '2099-06-10',
    startTime: '10:00',
    endTime: '12:00',
    title: 'Clay workshop',
    schoolName: 'Riverside Primary',
    program: 'Clay',
    location: null,
    ...values,
  };
}

/** The same offer as staff see it, made to `name`: no override, no email tried, nothing written back. */
export function aStaffOffer(values: Partial<StaffOffer> & Pick<StaffOffer, 'userId' | 'name'>): StaffOffer {
  return {
    ...anOffer(),
    override: null,
    safeguardingOverride: null,
    autoNext: false,
    seenAt: null,
    emailedAt: null,
    emailError: null,
    writeBack: null,
    ...values,
  };
}
