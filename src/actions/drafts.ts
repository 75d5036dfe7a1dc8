import type { App } from "../context";
import type { UserRow } from "../db/schema";
import { normalizeDraft, toApiDraft, type DraftInput } from "../domain/drafts";
import { draftNotFound, draftsSyncDisabled, invalidRecipientId } from "../domain/errors";
import { userSetting } from "../domain/user-settings";
import { toUsers } from "../events/types";
import * as store from "../store/drafts";
import { activeUserIdsAmong } from "../store/users";
import { accessChannelById } from "../access/channels";

/** One draft checked against the contract and the database (the channel must be one the user can see). */
function checkDraft(app: App, user: UserRow, d: DraftInput) {
  const n = normalizeDraft(d, app.now(), app.config.limits.maxTopicLength);
  if (n.type === "stream") accessChannelById(app, user, n.to[0]!);
  if (n.type === "private") {
    const found = activeUserIdsAmong(app.db, user.realmId, n.to);
    const missing = n.to.find((id) => !found.has(id));
    if (missing !== undefined) throw invalidRecipientId(missing);
  }
  return n;
}

function checkSync(user: UserRow) {
  if (userSetting(user, "enable_drafts_synchronization") === false) throw draftsSyncDisabled();
}

/** GET /drafts. */
export function listDrafts(app: App, user: UserRow) {
  const drafts = store.listDrafts(app.db, user.id).map(toApiDraft);
  return { count: drafts.length, drafts };
}

/** POST /drafts: every draft is checked before any is stored; the user's clients get one add event. */
export function createDrafts(app: App, user: UserRow, drafts: DraftInput[]) {
  checkSync(user);
  const checked = drafts.map((d) => checkDraft(app, user, d));
  return app.tx((tx) => {
    const rows = checked.map((d) => store.insertDraft(tx.db, user.id, d));
    if (rows.length) tx.emit({ type: "drafts", op: "add", drafts: rows.map(toApiDraft) }, toUsers([user.id]));
    return { ids: rows.map((r) => r.id) };
  });
}

/** PATCH /drafts/{draft_id}: replaces the draft. */
export function editDraft(app: App, user: UserRow, id: number, d: DraftInput) {
  checkSync(user);
  const existing = store.findDraft(app.db, user.id, id);
  if (!existing) throw draftNotFound();
  const checked = checkDraft(app, user, d);
  app.tx((tx) => {
    const row = store.updateDraft(tx.db, existing.id, checked);
    tx.emit({ type: "drafts", op: "update", draft: toApiDraft(row) }, toUsers([user.id]));
  });
  return {};
}

/** DELETE /drafts/{draft_id}. */
export function deleteDraft(app: App, user: UserRow, id: number) {
  checkSync(user);
  const existing = store.findDraft(app.db, user.id, id);
  if (!existing) throw draftNotFound();
  app.tx((tx) => {
    store.deleteDraft(tx.db, existing.id);
    tx.emit({ type: "drafts", op: "remove", draft_id: existing.id }, toUsers([user.id]));
  });
  return {};
}
