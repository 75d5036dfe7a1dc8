// GET /health and GET /metrics: what an operator's probe and Prometheus read. Counters kept while
// running live in app.metrics (lib/metrics.ts); what the database or the process can tell is read here.
import { statSync } from "node:fs";
import { databasePath } from "../config";
import type { App } from "../context";
import { metric } from "../lib/metrics";
import { countAgentRunsByState } from "../store/agent-runs";
import { countPluginsByState } from "../store/plugins";
import { SERVICE_VERSION } from "../version";

/** Healthy: the integrity check did not fail and writes are on. Nothing about any organization. */
export function health(app: App): { ok: boolean; body: Record<string, unknown> } {
  const writes = !app.writer.refusing;
  const ok = writes && app.health.integrity !== "failed";
  return {
    ok,
    body: {
      status: ok ? "ok" : "error",
      version: SERVICE_VERSION,
      storage: app.config.storage.driver,
      integrity_check: app.health.integrity,
      writes: writes ? "on" : "off",
    },
  };
}

const fileSize = (path: string) => {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
};

export async function renderMetrics(app: App): Promise<string> {
  const m = app.metrics;
  const q = app.queues.stats();
  const mem = process.memoryUsage();
  const db = databasePath(app.config);
  const byState = (rows: { state: string; n: number }[]): [string, number][] => rows.map((r) => [`state="${r.state}"`, r.n]);
  return (
    [
      ...metric("confab_build_info", "gauge", "The running version.", [[`version="${SERVICE_VERSION}"`, 1]]),
      ...metric("confab_up", "gauge", "1 when GET /health is ok: the integrity check did not fail and writes are on.", [["", health(app).ok ? 1 : 0]]),
      ...m.requests.lines(),
      ...metric("confab_rate_limited_total", "counter", "API requests refused by the rate limits.", [["", m.rateLimited]]),
      ...metric("confab_event_queues", "gauge", "Event queues held.", [["", q.queues]]),
      ...metric("confab_event_queue_events", "gauge", "Events waiting in all queues.", [["", q.queued_events]]),
      ...metric("confab_event_queue_largest_events", "gauge", "Events waiting in the fullest queue.", [["", q.largest_queue]]),
      ...metric("confab_longpolls_held", "gauge", "GET /events requests waiting for an event.", [["", q.waiting_polls]]),
      ...metric("confab_messages_sent_total", "counter", "Messages sent since start.", [["", m.messagesSent]]),
      "# HELP confab_commit_batch_actions Actions committed together (group commit).",
      "# TYPE confab_commit_batch_actions histogram",
      ...m.batchSize.lines("confab_commit_batch_actions"),
      "# HELP confab_commit_seconds Time SQLite's COMMIT took.",
      "# TYPE confab_commit_seconds histogram",
      ...m.commitSeconds.lines("confab_commit_seconds"),
      "# HELP confab_wal_fsync_seconds Time the WAL fsync after a COMMIT took.",
      "# TYPE confab_wal_fsync_seconds histogram",
      ...m.fsyncSeconds.lines("confab_wal_fsync_seconds"),
      "# HELP confab_wal_checkpoint_seconds Time a WAL checkpoint took in the checkpoint process, off the server's event loop.",
      "# TYPE confab_wal_checkpoint_seconds histogram",
      ...m.checkpointSeconds.lines("confab_wal_checkpoint_seconds"),
      ...metric("confab_database_bytes", "gauge", "Size of the database file.", [["", fileSize(db)]]),
      ...metric("confab_wal_bytes", "gauge", "Size of its write-ahead log.", [["", fileSize(`${db}-wal`)]]),
      ...metric("confab_plugins", "gauge", "Plugin installs by state.", byState(await countPluginsByState(app.db))),
      ...metric("confab_plugin_restarts_total", "counter", "Plugin processes restarted after a failure.", [["", m.pluginRestarts]]),
      ...metric("confab_agent_runs", "gauge", "Agent runs by state.", byState(await countAgentRunsByState(app.db))),
      ...metric("confab_agent_runs_started_total", "counter", "Agent runs started since start.", [["", m.agentRunsStarted]]),
      ...metric("process_resident_memory_bytes", "gauge", "Resident set size.", [["", mem.rss]]),
      ...metric("confab_heap_used_bytes", "gauge", "JavaScript heap in use.", [["", mem.heapUsed]]),
      ...metric("confab_heap_total_bytes", "gauge", "JavaScript heap allocated.", [["", mem.heapTotal]]),
    ].join("\n") + "\n"
  );
}
