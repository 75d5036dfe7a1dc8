import type { InviteRow } from "../db/schema";
import { invalidInviteChannel, invitationRevoked, linkExpired, noSuchInvitation } from "./errors";

/** Zulip's INVITATION_LINK_VALIDITY_MINUTES default: ten days. */
export const DEFAULT_INVITE_MINUTES = 14400;
export const MAX_WELCOME_TEXT_LENGTH = 8000;

export const inviteLink = (realmUrl: string, key: string) => `${realmUrl}/join/${key}/`;

/** An invitation as GET /invites lists it; reusable links show their URL. */
export const toApiInvite = (i: InviteRow, realmUrl: string) => ({
  id: i.id,
  invited_by_user_id: i.referredBy,
  invited: i.dateCreated,
  expiry_date: i.expiresAt,
  invited_as: i.invitedAs,
  email: i.email ?? "",
  notify_referrer_on_join: i.notifyReferrerOnJoin,
  is_multiuse: i.isMultiuse,
  ...(i.isMultiuse && { link_url: inviteLink(realmUrl, i.key) }),
});

/** The addresses of POST /invites' invitee_emails: split on commas and newlines, "Name <a@b>" allowed. */
export function parseInviteeEmails(raw: string): string[] {
  const out = new Set<string>();
  for (const part of raw.split(/[,\n]/)) {
    const named = /<(.*)>/.exec(part);
    const email = (named ? named[1]! : part).trim();
    if (email) out.add(email);
  }
  return [...out];
}
