/** Emails about a person's own account. */
import { composeMessage, type OutgoingMessage } from './offer-message';
import { PORTAL_NAME } from './reminder-message';

const WHAT_HAPPENED = {
  linked: (account: string, by: string) =>
    `Your portal account can now be signed in to with the Microsoft account ${account}, through an invitation ${by} made.`,
  replaced: (account: string, by: string) =>
    `Your portal account is now signed in to with the Microsoft account ${account}, through an invitation ${by} made to replace the Microsoft account it was linked to. The portal sessions the earlier Microsoft account opened have been ended.`,
  unlinked: (account: string, by: string) =>
    `${by.charAt(0).toUpperCase()}${by.slice(1)} removed Microsoft sign-in (${account}) from your portal account, and the portal sessions it opened have been ended. Your password, if you have one, still works.`,
};

const SUBJECT = {
  linked: 'Your portal account is now linked to a Microsoft account',
  replaced: 'Your portal account is now linked to another Microsoft account',
  unlinked: 'Microsoft sign-in was removed from your portal account',
};

/**
 * To the owner of an account whose Microsoft sign-in someone else's action changed: which Microsoft
 * account signs in to it now (or which no longer does), and who made the change.
 */
export function microsoftIdentityMessage(input: {
  event: keyof typeof SUBJECT;
  name: string;
  /** the Microsoft account linked now (linked, replaced) or removed (unlinked) */
  microsoftAccount: string | null;
  /** who made the invitation, or removed the link */
  by: string;
  /** the login page the person signs in on */
  signInLink: string;
}): OutgoingMessage {
  return composeMessage(SUBJECT[input.event], [
    `Hello ${input.name},`,
    WHAT_HAPPENED[input.event](input.microsoftAccount ?? 'a Microsoft account', input.by),
    'If you did not expect this, tell the team straight away: someone else may be able to sign in as you.',
    { link: input.signInLink },
  ]);
}

/** A link where the account's owner sets a password: a reset they asked for, or staff's invitation. */
export function passwordLinkMessage(input: {
  purpose: 'reset' | 'invitation';
  name: string;
  username: string;
  link: string;
  /** how long the link works, in words ("1 hour", "7 days") */
  validFor: string;
  /** the staff member who sent an invitation */
  by?: string;
}): OutgoingMessage {
  if (input.purpose === 'invitation') {
    return composeMessage(`You are invited to the ${PORTAL_NAME}`, [
      `Hello ${input.name},`,
      `${input.by ?? 'The team'} invited you to the ${PORTAL_NAME}, where you mark the days you can work and see your bookings. Your username is ${input.username}.`,
      `Open this link to choose your password (it works once, for ${input.validFor}):`,
      { link: input.link },
      `Thank you.\n${PORTAL_NAME}`,
    ]);
  }
  return composeMessage('Set a new password for the portal', [
    `Hello ${input.name},`,
    `Someone asked to set a new password for the portal account ${input.username}. Open this link to choose one (it works once, for ${input.validFor}):`,
    { link: input.link },
    'If you did not ask, you can ignore this email: your password stays as it is.',
    `Thank you.\n${PORTAL_NAME}`,
  ]);
}

/** To the owner of an account whose password was just set through a link. */
export function passwordChangedMessage(input: { name: string; username: string; signInLink: string }) {
  return composeMessage('Your portal password was changed', [
    `Hello ${input.name},`,
    `The password of the portal account ${input.username} was changed through a link sent to this address. Every other session of the account has been signed out, and its calendar feed turned off.`,
    'If you did not do this, tell the team straight away: someone else may be able to sign in as you.',
    { link: input.signInLink },
  ]);
}
