// Which organization settings pages a user may open: administrators all of them; others only the pages
// a group setting delegates to them (invitations, user groups, custom emoji, bots). Kept out of the
// lazy chunk so the user menu knows whether to offer the entry at all.
import { can } from "../../store/permissions";
import { me, userGroups } from "../../store/state";
import { BOT_TYPES, isAdmin, mayAddEmoji, mayChangeGroup, mayCreateBot, mayCreateGroup } from "./rules";

const DELEGATED: Record<string, () => boolean> = {
  invitations: () => can("can_invite_users_group") || can("create_multiuse_invite_group"),
  // Also for whom a single group's settings let add or remove its members.
  groups: () => mayCreateGroup() || [...userGroups.value.values()].some((g) => !g.deactivated && mayChangeGroup(g)),
  emoji: mayAddEmoji,
  bots: () => BOT_TYPES.some(([t]) => mayCreateBot(t)),
};

/** Whether the user may open the section with this id (#organization/<id>). */
export const maySeeSection = (id: string) => !me.value.is_bot && (isAdmin() || (DELEGATED[id]?.() ?? false));

/** The first section the user may open, in the pages' order; none: no entry in the menu. */
export const firstSection = (ids: readonly string[]) => ids.find(maySeeSection);

/** The sections' ids in the order the settings pages list them (Admin.tsx follows it). */
export const SECTION_IDS = [
  "profile",
  "permissions",
  "messages",
  "defaults",
  "users",
  "bots",
  "invitations",
  "groups",
  "channels",
  "emoji",
  "linkifiers",
  "profile-fields",
] as const;
