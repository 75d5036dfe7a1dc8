// The server's rules for the controls of the organization settings pages, one helper per rule, each
// named after the server function it mirrors, so a page offers only what the server would accept
// (the server still checks every request). Small and free of views: access.ts, in the main chunk, uses it.
import type { GroupSettingValue } from "../../../domain/group-settings";
import type { UserGroup } from "../../api/types";
import { can, holds } from "../../store/permissions";
import { me, subs } from "../../store/state";

export const isOwner = () => me.value.role === 100;
export const isAdmin = () => me.value.role <= 200;
const isGuest = () => me.value.role >= 600;

/** The user group settings that let someone other than its managers change a group. */
export type GroupPurpose = "can_add_members_group" | "can_remove_members_group" | "can_join_group" | "can_leave_group";

/**
 * groupForUpdate (src/actions/user-groups.ts): never a system group, never for guests; holders of the
 * realm's can_manage_all_groups or the group's can_manage_group may do anything (no purpose: only
 * they); others what one of the purposes' settings grants them. Administrators get no exception.
 */
export function mayUpdateGroup(g: UserGroup, purposes: readonly GroupPurpose[] = []): boolean {
  if (isGuest() || g.is_system_group) return false;
  if (can("can_manage_all_groups") || holds(g.can_manage_group as GroupSettingValue)) return true;
  return purposes.some((p) => holds(g[p] as GroupSettingValue));
}

/** updateGroupMembers: adding others needs can_add_members_group; adding oneself can_join_group too. */
export const mayAddGroupMember = (g: UserGroup, userId: number) =>
  mayUpdateGroup(g, userId === me.value.user_id ? ["can_join_group", "can_add_members_group"] : ["can_add_members_group"]);

/** updateGroupMembers: removing others needs can_remove_members_group; leaving can_leave_group too. */
export const mayRemoveGroupMember = (g: UserGroup, userId: number) =>
  mayUpdateGroup(g, userId === me.value.user_id ? ["can_leave_group", "can_remove_members_group"] : ["can_remove_members_group"]);

/** Changing the group or others' membership: what puts an Edit button on its row and opens the page.
 * Joining and leaving alone do not (by default everyone may leave a group). */
export const mayChangeGroup = (g: UserGroup) => mayUpdateGroup(g, ["can_add_members_group", "can_remove_members_group"]);

/** createUserGroup: holders of can_create_groups. */
export const mayCreateGroup = () => !isGuest() && can("can_create_groups");

/** Zulip's bot kinds (domain/bots on the server). */
export const BOT_TYPES: [number, string][] = [
  [1, "Generic bot"],
  [2, "Incoming webhook"],
  [3, "Outgoing webhook"],
];
const INCOMING_WEBHOOK = 2;

/** createBot (src/actions/bots.ts): every kind for can_create_bots_group; incoming webhooks also for can_create_write_only_bots_group. */
export const mayCreateBot = (botType: number) =>
  !isGuest() && (can("can_create_bots_group") || (botType === INCOMING_WEBHOOK && can("can_create_write_only_bots_group")));

/** botForAdmin (src/actions/bots.ts): the bot's owner or an administrator changes it, its key, its deactivation. */
export const mayAdministerBot = (b: { owner_id: number | null }) => isAdmin() || b.owner_id === me.value.user_id;

/** userForAdmin (src/actions/users.ts): reactivating anyone, a bot included, is for administrators. */
export const mayAdministerUsers = isAdmin;

/** removeRealmEmoji (src/actions/realm-emoji.ts): administrators and the emoji's author. */
export const mayRemoveEmoji = (e: { author_id?: number | null }) => isAdmin() || e.author_id === me.value.user_id;

/** addRealmEmoji: holders of can_add_custom_emoji_group. */
export const mayAddEmoji = () => can("can_add_custom_emoji_group");

/** checkRole (src/actions/invites.ts): owners only by owners; by email moderators and up, by link roles
 * above one's own, only by administrators. */
export const mayInviteAs = (role: number, byEmail: boolean) => (role !== 100 || isOwner()) && (isAdmin() || (byEmail ? role > 300 : role >= me.value.role));

/** controlledInvite: one's own invitations; others' as checkRole allows administrators. */
export const mayControlInvite = (i: { invited_by_user_id: number; invited_as: number }) =>
  i.invited_by_user_id === me.value.user_id || (isAdmin() && (i.invited_as !== 100 || isOwner()));

/**
 * canAddSubscribers (src/actions/subscriptions.ts), which an invitation's channels need unless they are
 * default channels: administrators, the channel's can_add_subscribers_group or
 * can_administer_channel_group, or the realm's can_add_subscribers_group on a channel whose messages one
 * may read (public, or subscribed).
 */
export function mayAddSubscribers(c: { stream_id: number; invite_only: boolean; [k: string]: unknown }): boolean {
  if (isGuest()) return false;
  if (isAdmin() || holds(c.can_add_subscribers_group as GroupSettingValue) || holds(c.can_administer_channel_group as GroupSettingValue)) return true;
  return can("can_add_subscribers_group") && (!c.invite_only || subs.value.has(c.stream_id));
}
