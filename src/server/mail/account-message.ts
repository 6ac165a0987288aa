/** Emails about a person's own account. */
import { composeMessage, type OutgoingMessage } from './offer-message';

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
