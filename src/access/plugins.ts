// Who may see a plugin install.
import type { PluginRow, UserRow } from "../db/schema";
import { isGuest } from "../domain/roles";

export const isDraftOwner = (user: UserRow, p: PluginRow) => p.state === "draft" && (p.madeBy ?? p.installedBy) === user.id;

/** Drafts are seen by the person they are made for; other installs by every member (not guests). */
export const canSeePlugin = (user: UserRow, p: PluginRow) => (p.state === "draft" ? isDraftOwner(user, p) : !isGuest(user.role));
