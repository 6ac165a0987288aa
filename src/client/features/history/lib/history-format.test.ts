import type { HistoryEntry } from '@shared/schemas/history';
import { describe, expect, it } from 'vitest';
import { describeActor, describeChange, fieldChanges, formatWhen, viaLabel } from './history-format';

const day = (status: string, extra: Record<string, string> = {}) => ({
  status,
  startTime: '',
  endTime: '',
  notes: '',
  ...extra,
});

function entry(overrides: Partial<HistoryEntry>): HistoryEntry {
  return {
    id: 1,
    at: '2026-07-01T13:05:00.000Z',
    entity: 'availability',
    action: 'update',
    subjectUserId: 7,
    subjectName: 'Alice',
    date: '2027-01-04',
    actorId: 7,
    actorName: 'Alice',
    via: 'facilitator',
    before: day('available'),
    after: day('unavailable'),
    ...overrides,
  };
}

describe('history wording', () => {
  it('tells the SharePoint settings from the Sign in with Microsoft settings', () => {
    const settings = {
      entity: 'settings',
      subjectUserId: null,
      actorId: 1,
      actorName: 'Sam',
      via: 'staff',
    } as const;
    expect(describeChange(entry({ ...settings, before: null, after: { siteUrl: 'https://x' } }))).toBe(
      'Staff (Sam) changed the SharePoint settings',
    );
    expect(
      describeChange(entry({ ...settings, before: null, after: { microsoftSignIn: true, tenantId: 't' } })),
    ).toBe('Staff (Sam) changed the Sign in with Microsoft settings');
  });

  it('names the passkey added, renamed or removed, with no field list under it', () => {
    const account = { entity: 'account', date: null } as const;
    const passkey = (event: string, passkey: string, was?: string) =>
      entry({
        ...account,
        before: was ? { username: 'alice', section: 'passkeys', passkey: was } : { username: 'alice' },
        after: { username: 'alice', section: 'passkeys', event, passkey },
      });
    expect(describeChange(passkey('passkey-added', 'Work laptop'))).toBe(
      'Alice added the passkey "Work laptop"',
    );
    const renamed = passkey('passkey-renamed', 'Office laptop', 'Work laptop');
    expect(describeChange(renamed)).toBe('Alice renamed the passkey "Work laptop" to "Office laptop"');
    expect(describeChange(passkey('passkey-renamed', 'Office laptop'))).toBe(
      'Alice renamed a passkey to "Office laptop"',
    );
    expect(describeChange(passkey('passkey-removed', 'Office laptop'))).toBe(
      'Alice removed the passkey "Office laptop"',
    );
    expect(describeChange(passkey('passkey-added', 'Phone'), 7)).toBe('You added the passkey "Phone"');
    for (const event of ['passkey-added', 'passkey-renamed', 'passkey-removed']) {
      expect(fieldChanges(passkey(event, 'Phone', 'Old phone'))).toEqual([]);
    }
  });

  it('says whether staff must sign in with a passkey or Microsoft', () => {
    const policy = (required: boolean, before: boolean | null) =>
      entry({
        entity: 'settings',
        subjectUserId: null,
        date: null,
        actorId: 1,
        actorName: 'Sam',
        via: 'staff',
        before: before === null ? null : { staffSignIn: true, staffPasskeyOrMicrosoft: before },
        after: { staffSignIn: true, staffPasskeyOrMicrosoft: required },
      });
    expect(describeChange(policy(true, null))).toBe(
      'Staff (Sam) required passkeys or Microsoft sign-in for staff accounts',
    );
    expect(describeChange(policy(false, true))).toBe('Staff (Sam) let staff sign in with a password again');
    expect(fieldChanges(policy(false, true))).toEqual([]);
  });

  it('says who invited, linked, replaced and removed a Microsoft account, and which one', () => {
    const account = { entity: 'account', date: null } as const;
    const invited = entry({
      ...account,
      actorId: 1,
      actorName: 'Sam',
      via: 'staff',
      before: { section: 'microsoft-sign-in', microsoftAccount: null },
      after: {
        section: 'microsoft-sign-in',
        event: 'invited',
        microsoftAccount: null,
        invitationValidUntil: '2026-07-08T13:05:00.000Z',
      },
    });
    expect(describeChange(invited)).toBe('Staff (Sam) sent an invitation to sign in with Microsoft');
    const replaced = entry({
      ...account,
      before: { section: 'microsoft-sign-in', microsoftAccount: 'alice@contoso.example (oid-1)' },
      after: {
        section: 'microsoft-sign-in',
        event: 'replaced',
        microsoftAccount: 'sam@contoso.example (oid-2)',
        invitedBy: 'Sam',
      },
    });
    expect(describeChange(replaced)).toBe('Alice replaced the linked Microsoft account');
    expect(fieldChanges(replaced)).toEqual([
      {
        label: 'Microsoft account',
        from: 'alice@contoso.example (oid-1)',
        to: 'sam@contoso.example (oid-2)',
      },
      { label: 'Invited by', from: '(none)', to: 'Sam' },
    ]);
    const removed = entry({
      ...account,
      actorId: 1,
      actorName: 'Sam',
      via: 'staff',
      after: { section: 'microsoft-sign-in', event: 'unlinked', microsoftAccount: null },
    });
    expect(describeChange(removed)).toBe('Staff (Sam) removed Microsoft sign-in');
  });

  it('names the person, staff, the viewer and SharePoint', () => {
    expect(describeActor(entry({}))).toBe('Alice');
    expect(describeActor(entry({}), 7)).toBe('You');
    expect(describeActor(entry({ actorId: 1, actorName: 'Sam', via: 'bulk' }))).toBe('Staff (Sam)');
    expect(describeActor(entry({ actorId: 1, actorName: 'Sam', via: 'sharepoint' }))).toBe(
      'SharePoint import (run by Sam)',
    );
    expect(describeActor(entry({ actorId: null, actorName: null, via: 'sharepoint' }))).toBe(
      'SharePoint import',
    );
  });

  it('says what changed in a day', () => {
    expect(describeChange(entry({}))).toBe('Alice changed Available → Unavailable');
    expect(describeChange(entry({ action: 'create', before: null, after: day('limited') }))).toBe(
      'Alice set Limited Availability',
    );
    const times = entry({
      before: day('limited', { startTime: '09:00', endTime: '12:00' }),
      after: day('limited', { startTime: '10:00', endTime: '12:00', notes: 'Later start' }),
    });
    expect(describeChange(times)).toBe('Alice changed the times and note');
    expect(fieldChanges(times)).toEqual([
      { label: 'Times', from: '9:00 AM – 12:00 PM', to: '10:00 AM – 12:00 PM' },
      { label: 'Note', from: '(none)', to: 'Later start' },
    ]);
  });

  it('never shows a secret, only that it changed', () => {
    const reset = entry({
      entity: 'account',
      actorId: 1,
      actorName: 'Sam',
      via: 'staff',
      date: null,
      before: { username: 'a@example.org', role: 'facilitator' },
      after: { username: 'a@example.org', role: 'facilitator', password: 'changed' },
    });
    expect(describeChange(reset)).toBe('Staff (Sam) changed the password');
    expect(fieldChanges(reset)).toEqual([{ label: 'Password changed' }]);
    const promoted = entry({ ...reset, after: { username: 'a@example.org', role: 'staff' } });
    expect(describeChange(promoted)).toBe('Staff (Sam) changed the role facilitator → staff');
  });

  it('says when a password was set through an emailed link, and when an invitation was sent', () => {
    const values = { username: 'a@example.org', role: 'facilitator' };
    const byLink = (event: string, via: 'facilitator' | 'staff', actorName: string) =>
      entry({
        entity: 'account',
        actorId: 1,
        actorName,
        via,
        date: null,
        before: values,
        after: { ...values, password: 'changed', section: 'password-link', event },
      });
    expect(describeChange(byLink('reset', 'facilitator', 'Ann'))).toBe(
      'Facilitator (Ann) set a new password through a reset email',
    );
    expect(fieldChanges(byLink('reset', 'facilitator', 'Ann'))).toEqual([{ label: 'Password changed' }]);
    expect(describeChange(byLink('invitation', 'facilitator', 'Ann'))).toBe(
      'Facilitator (Ann) accepted the invitation and set a password',
    );
  });

  it('shows the time in the organisation time zone', () => {
    expect(formatWhen('2026-07-01T13:05:00.000Z', 'Europe/London')).toBe('1 Jul 2026, 2:05 PM BST');
    expect(formatWhen('2026-12-01T13:05:00.000Z', 'Europe/London')).toBe('1 Dec 2026, 1:05 PM GMT');
  });
});

describe('safeguarding entries', () => {
  it('name the records or the policy and list what changed, the certificate masked as stored', () => {
    const records = entry({
      entity: 'account',
      actorId: 1,
      actorName: 'Sam',
      via: 'staff',
      date: null,
      before: null,
      after: {
        section: 'safeguarding',
        dbsCertificate: '********7890',
        dbsIssueDate: '2026-01-10',
        enhancedWithBarredList: true,
        onUpdateService: false,
        statusCheckedOn: null,
        checkedBy: 'Office',
        otherChecks: null,
      },
    });
    expect(describeChange(records)).toBe('Staff (Sam) updated the safeguarding records');
    expect(fieldChanges(records)).toEqual([
      { label: 'DBS certificate', from: '(none)', to: '********7890' },
      { label: 'DBS issued', from: '(none)', to: '2026-01-10' },
      { label: 'Enhanced with barred list', from: '(none)', to: 'Yes' },
      { label: 'On the Update Service', from: '(none)', to: 'No' },
      { label: 'Checked by', from: '(none)', to: 'Office' },
    ]);
    const policy = entry({
      entity: 'settings',
      subjectUserId: null,
      actorId: 1,
      actorName: 'Sam',
      via: 'staff',
      before: { section: 'safeguarding', dbsMonths: 36 },
      after: { section: 'safeguarding', dbsMonths: 24 },
    });
    expect(describeChange(policy)).toBe('Staff (Sam) changed the safeguarding policy');
  });
});

describe('offer entries', () => {
  const session = 'Wednesday 2 December 2026, 9:30 AM – 12:00 PM, Oakfield Primary (Dance)';
  const offer = (overrides: Partial<HistoryEntry>) =>
    entry({
      entity: 'offer',
      subjectUserId: 8,
      subjectName: 'Bea',
      date: '2026-12-02',
      ...overrides,
    });

  it('the loser of a race reads who took the session, in their role, as a sentence without field names', () => {
    const lost = offer({
      actorId: 9,
      actorName: 'Chloe',
      via: 'facilitator',
      before: { offerId: 3, session, state: 'sent' },
      after: { offerId: 3, session, state: 'withdrawn', reason: 'taken' },
    });
    expect(describeChange(lost)).toBe(
      `Facilitator (Chloe) accepted the session on ${session} first, so this offer was withdrawn`,
    );
    expect(fieldChanges(lost)).toEqual([]);
    expect(viaLabel(lost)).toBe('the portal');
    // accepted from the email link, the same
    expect(describeActor(offer({ actorId: 9, actorName: 'Chloe', via: 'email' }))).toBe(
      'Facilitator (Chloe)',
    );
  });

  it('an offer made names staff, whom it went to, and its details in words', () => {
    const made = offer({
      action: 'create',
      actorId: 1,
      actorName: 'Sam',
      via: 'staff',
      before: null,
      after: {
        offerId: 3,
        session,
        state: 'sent',
        replyBy: '2026-11-25T17:00:00.000Z',
        override: 'booked',
        safeguardingOverride: { state: 'missing', reason: 'Seen in person' },
        autoNext: true,
      },
    });
    expect(describeChange(made)).toBe(`Staff (Sam) offered Bea the session on ${session}`);
    expect(fieldChanges(made, 'Europe/London')).toEqual([
      { label: 'Reply by', to: '25 Nov 2026, 5:00 PM GMT' },
      { label: 'Offered although', to: 'already booked that day' },
      { label: 'Offered despite safeguarding checks', to: 'Missing: Seen in person' },
      { label: 'If declined or unanswered', to: 'offered to the next facilitator in the ranking' },
    ]);
    expect(viaLabel(made)).toBe('Open sessions');
    const next = offer({
      action: 'create',
      actorId: null,
      actorName: null,
      via: 'automatic',
      after: { session },
    });
    expect(describeChange(next)).toBe(
      `The portal offered Bea the session on ${session}, the next in the ranking`,
    );
    expect(viaLabel(next)).toBe('offer to the next facilitator');
  });

  it('answers, ends and a session created in the portal read as sentences', () => {
    const declined = offer({
      actorId: 8,
      actorName: 'Bea',
      after: { offerId: 3, session, state: 'declined', declineReason: 'Away that week' },
    });
    expect(describeChange(declined)).toBe(`Bea declined the session on ${session}`);
    expect(fieldChanges(declined)).toEqual([{ label: 'Reason', to: 'Away that week' }]);
    expect(
      describeChange(offer({ actorId: 8, actorName: 'Bea', after: { session, state: 'accepted' } })),
    ).toBe(`Bea accepted the session on ${session}`);
    expect(
      describeChange(
        offer({
          actorId: 1,
          actorName: 'Sam',
          via: 'staff',
          after: { session, state: 'withdrawn', reason: 'staff' },
        }),
      ),
    ).toBe(`Staff (Sam) withdrew the offer of the session on ${session}`);
    const expired = offer({
      actorId: null,
      actorName: null,
      via: 'automatic',
      after: { session, state: 'expired' },
    });
    expect(describeChange(expired)).toBe(
      `The offer of the session on ${session} expired unanswered at its reply-by time`,
    );
    expect(viaLabel(expired)).toBe('reply-by time');
    const created = entry({
      entity: 'session',
      action: 'create',
      subjectUserId: null,
      subjectName: null,
      actorId: 1,
      actorName: 'Sam',
      via: 'staff',
      before: null,
      after: {
        title: 'Riverside Academy – Drama',
        date: '2026-12-11',
        startTime: '13:00',
        endTime: '15:00',
        schoolName: 'Riverside Academy',
        program: 'Drama',
        location: 'Hall 2',
      },
    });
    expect(describeChange(created)).toBe(
      'Staff (Sam) created a session on Fri 11 Dec 2026, 1:00 PM – 3:00 PM, Riverside Academy (Drama)',
    );
    expect(fieldChanges(created)).toEqual([{ label: 'Location', to: 'Hall 2' }]);
  });
});
