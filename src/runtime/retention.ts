import { applyRetention } from "../actions/retention";
import type { App } from "../app";

/** Applies message retention soon after start and then every `intervalSeconds`; returns a stop function. */
export function startRetention(app: App, intervalSeconds: number): () => void {
  const run = () => {
    try {
      applyRetention(app);
    } catch (e) {
      app.log.error("retention failed", { error: String((e as Error).message) });
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
