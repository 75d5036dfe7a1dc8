// This node's side of the wake-ups that cross nodes (db/node-wakes.ts): on PostgreSQL one LISTEN
// connection per node, each kind of wake handed to the one handler this node set for it; on SQLite (one
// node) nothing is started and `sendWake` does nothing.
import type { App } from "../context";
import { NodeWakes, type Wake } from "../db/node-wakes";

interface Registry {
  wakes: NodeWakes;
  handlers: Map<string, (arg: unknown) => void>;
}

const registries = new WeakMap<App, Registry>();

/** Starts hearing other nodes' wakes (PostgreSQL only); resolves once they are heard. */
export async function startWakes(app: App): Promise<void> {
  if (app.config.storage.driver !== "postgres" || registries.has(app)) return;
  const handlers = new Map<string, (arg: unknown) => void>();
  const wakes = new NodeWakes({
    url: app.config.storage.url,
    onWake: (w: Wake) => {
      try {
        handlers.get(w.kind)?.(w.arg);
      } catch (e) {
        app.log.error("a wake from another node failed", { kind: w.kind, error: String((e as Error)?.stack ?? e) });
      }
    },
  });
  registries.set(app, { wakes, handlers });
  await wakes.start();
}

/** What this node does when another node sends a wake of `kind` (null: nothing). */
export function onWake(app: App, kind: string, handler: ((arg: unknown) => void) | null) {
  const r = registries.get(app);
  if (!r) return;
  if (handler) r.handlers.set(kind, handler);
  else r.handlers.delete(kind);
}

/** Whether this node hears other nodes' wakes (and so may need to send its own). */
export const wakesRunning = (app: App) => registries.has(app);

/** Tells the other nodes; a hint that may be lost, never an error. */
export function sendWake(app: App, kind: string, arg?: unknown) {
  void registries.get(app)?.wakes.send({ kind, arg });
}

export async function stopWakes(app: App) {
  const r = registries.get(app);
  registries.delete(app);
  await r?.wakes.stop();
}
