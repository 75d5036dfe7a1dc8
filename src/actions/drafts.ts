import type { App } from "../context";
import type { UserRow } from "../db/schema";
import { normalizeDraft, toApiDraft, type DraftInput } from "../domain/drafts";
import { draftNotFound, draftsSyncDisabled, invalidRecipientId } from "../domain/errors";
import { userSetting } from "../domain/user-settings";
import { toUsers } from "../events/types";
import * as store from "../store/drafts";
import { activeUserIdsAmong } from "../store/users";
import { accessChannelById } from "../access/channels";
import { mapInOrder } from "../lib/in-order";

/** One draft checked against the contract and the database (the channel must be one the user can see). */
async function checkDraft(app: App, user: UserRow, d: DraftInput) {
  const n = normalizeDraft(d, app.now(), app.config.limits.maxTopicLength);
  if (n.type === "stream") await accessChannelById(app, user, n.to[0]!);
  if (n.type === "private") {
    const found = await activeUserIdsAmong(app.db, user.realmId, n.to);
    const missing = n.to.find((id) => !found.has(id));
    if (missing !== undefined) throw invalidRecipientId(missing);
  }
  return n;
}

function checkSync(user: UserRow) {
  if (userSetting(user, "enable_drafts_synchronization") === false) throw draftsSyncDisabled();
}

/** GET /drafts. */
export async function listDrafts(app: App, user: UserRow) {
  const drafts = (await store.listDrafts(app.db, user.id)).map(toApiDraft);
  return { count: drafts.length, drafts };
}

/** POST /drafts: every draft is checked before any is stored; the user's clients get one add event. */
export async function createDrafts(app: App, user: UserRow, drafts: DraftInput[]) {
  checkSync(user);
  const checked = await mapInOrder(drafts, async (d) => await checkDraft(app, user, d));
  return await app.tx(async (tx) => {
    const rows = await mapInOrder(checked, async (d) => await store.insertDraft(tx.db, user.id, d));
    if (rows.length) tx.emit({ type: "drafts", op: "add", drafts: rows.map(toApiDraft) }, toUsers([user.id]));
    return { ids: rows.map((r) => r.id) };
  });
}

/** PATCH /drafts/{draft_id}: replaces the draft. */
export async function editDraft(app: App, user: UserRow, id: number, d: DraftInput) {
  checkSync(user);
  const existing = await store.findDraft(app.db, user.id, id);
  if (!existing) throw draftNotFound();
  const checked = await checkDraft(app, user, d);
  await app.tx(async (tx) => {
    const row = await store.updateDraft(tx.db, existing.id, checked);
    tx.emit({ type: "drafts", op: "update", draft: toApiDraft(row) }, toUsers([user.id]));
  });
  return {};
}

/** DELETE /drafts/{draft_id}. */
export async function deleteDraft(app: App, user: UserRow, id: number) {
  checkSync(user);
  const existing = await store.findDraft(app.db, user.id, id);
  if (!existing) throw draftNotFound();
  await app.tx(async (tx) => {
    await store.deleteDraft(tx.db, existing.id);
    tx.emit({ type: "drafts", op: "remove", draft_id: existing.id }, toUsers([user.id]));
  });
  return {};
}
