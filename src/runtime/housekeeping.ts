import { applyRetention } from "../actions/retention";
import { syncFullMembers } from "../actions/users";
import type { App } from "../app";
import { listRealms } from "../store/realms";

/**
 * The periodic housekeeping: message retention, and members whose accounts aged past the realm's
 * waiting period joining role:fullmembers. Soon after start, then every `intervalSeconds`; returns a
 * stop function.
 */
export function startHousekeeping(app: App, intervalSeconds: number): () => void {
  const run = () => {
    try {
      applyRetention(app);
      for (const realm of listRealms(app.db)) if (!realm.deactivated) syncFullMembers(app, realm);
    } catch (e) {
      app.log.error("housekeeping failed", { error: String((e as Error).message) });
    }
  };
  const first = setTimeout(run, 30_000);
  const every = setInterval(run, intervalSeconds * 1000);
  first.unref?.();
  every.unref?.();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
