/** Emails about a person's own account. */
import { composeMessage, type OutgoingMessage } from './offer-message';

/**
 * To the person whose Microsoft sign-in was replaced: another Microsoft account now signs in to their
 * portal account, through an invitation staff made to replace it.
 */
export function microsoftIdentityReplacedMessage(input: {
  name: string;
  /** the sign-in name of the Microsoft account linked now */
  newAccount: string;
  /** the staff member who made the invitation */
  invitedBy: string;
  /** the login page the person signs in on */
  signInLink: string;
}): OutgoingMessage {
  return composeMessage('Your portal account is now linked to another Microsoft account', [
    `Hello ${input.name},`,
    `Your portal account is now signed in to with the Microsoft account ${input.newAccount}, through an invitation ${input.invitedBy} made to replace the Microsoft account it was linked to. The portal sessions the earlier Microsoft account opened have been ended.`,
    'If you did not expect this, tell the team straight away: someone else may be able to sign in as you.',
    { link: input.signInLink },
  ]);
}
