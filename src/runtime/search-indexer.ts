import { INDEX_BATCH, indexBatch } from "../actions/search-index";
import type { App } from "../app";

/** Indexes messages waiting for search every `intervalMs`, a batch per event-loop turn; returns a stop function. */
export function startSearchIndexer(app: App, intervalMs = 1000): () => void {
  let stopped = false;
  const drain = () => {
    try {
      if (!stopped && indexBatch(app) === INDEX_BATCH) setImmediate(drain);
    } catch (e) {
      app.log.error("search indexing failed", { error: String((e as Error).message) });
    }
  };
  const timer = setInterval(drain, intervalMs);
  timer.unref?.();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
