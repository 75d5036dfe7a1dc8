// A plugin install's state: the one place it changes (setPluginStateTx), the state it should be in,
// and the host's looks at waiting and starting installs.
import type { App } from "../context";
import type { Db } from "../db/client";
import type { PluginRow } from "../db/schema";
import type { Tx } from "../db/tx";
import { canMove, DISABLED_DETAIL, missingDetail, missingRequirements, type PluginState } from "../domain/plugins";
import * as store from "../store/plugins";
import { listSecrets } from "../store/secrets";
import { announcePluginTx } from "./plugin-access";

// ---- State ----

/** The one way a state changes: checked against the table, stored, and announced. */
export async function setPluginStateTx(tx: Tx, p: PluginRow, state: PluginState, detail = ""): Promise<PluginRow> {
  if (p.state === state && p.detail === detail) return p;
  if (!canMove(p.state as PluginState, state)) throw new Error(`plugin ${p.id}: no move from ${p.state} to ${state}`);
  const row = await store.updatePlugin(tx.db, p.id, { state, detail });
  await announcePluginTx(tx, row);
  return row;
}

/** setPluginStateTx for the host: reads the install afresh, and does nothing once it was removed or moved on. */
export async function setPluginState(
  app: App,
  id: number,
  state: PluginState,
  detail = "",
  o: { from?: readonly PluginState[] } = {},
): Promise<PluginRow | null> {
  return await app.tx(async (tx) => {
    const p = await store.findPlugin(tx.db, id);
    if (!p || (o.from && !o.from.includes(p.state as PluginState)) || !canMove(p.state as PluginState, state)) return null;
    return await setPluginStateTx(tx, p, state, detail);
  });
}

/** Where an install should be: waiting (turned off, or something missing) or starting. */
export async function plannedState(db: Db, p: PluginRow): Promise<{ state: PluginState; detail: string }> {
  if (p.disabled) return { state: "waiting", detail: DISABLED_DETAIL };
  const slots = new Set((await store.listSlots(db, [p.id])).map((s) => s.name));
  const orgSecrets = new Set((await listSecrets(db, p.realmId)).map((s) => s.name));
  const missing = missingRequirements(p.manifest, p.settings, slots, orgSecrets);
  return missing.length ? { state: "waiting", detail: missingDetail(missing) } : { state: "starting", detail: "" };
}

/** After a change to what the process is given: a new revision (the host restarts a live process), and the planned state. */
export async function replanTx(tx: Tx, p: PluginRow): Promise<PluginRow> {
  const row = await store.updatePlugin(tx.db, p.id, { revision: p.revision + 1 });
  if (row.state === "draft" || row.state === "removed") {
    await announcePluginTx(tx, row);
    return row;
  }
  // A running process is restarted with what changed, so it is starting again until it answers.
  const plan = await plannedState(tx.db, row);
  const next = await setPluginStateTx(tx, row, plan.state, plan.detail);
  if (next === row) await announcePluginTx(tx, row);
  return next;
}

/**
 * The host's look at waiting installs: one whose missing organization secret was added since moves to
 * starting (and one that lost it to waiting on its next start). Returns whether anything moved.
 */
export async function reviewWaitingPlugin(app: App, p: PluginRow): Promise<boolean> {
  if (p.state !== "waiting") return false;
  const plan = await plannedState(app.db, p);
  if (plan.state === p.state && plan.detail === p.detail) return false; // read-only: most looks change nothing
  return await app.tx(async (tx) => {
    const now = await store.findPlugin(tx.db, p.id);
    if (!now || now.state !== "waiting") return false;
    await setPluginStateTx(tx, now, plan.state, plan.detail);
    return true;
  });
}

/** Before each start: still everything there? If not, the install waits (and is not started). */
export async function confirmStartable(app: App, id: number): Promise<boolean> {
  return await app.tx(async (tx) => {
    const p = await store.findPlugin(tx.db, id);
    if (!p) return false;
    const plan = await plannedState(tx.db, p);
    if (plan.state === "starting") return true;
    if (canMove(p.state as PluginState, plan.state)) await setPluginStateTx(tx, p, plan.state, plan.detail);
    return false;
  });
}
