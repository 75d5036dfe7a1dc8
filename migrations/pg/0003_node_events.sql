-- Hand-written (registered by `drizzle-kit generate --custom`): how events cross confab nodes
-- (docs/scaling.md, section 3). Not data: cluster state, never copied by migrate-storage, no SQLite twin.
-- One row per committed batch of one node, its events in order; every node is told the batch's id by
-- NOTIFY on COMMIT and reads the row. UNLOGGED: no WAL for rows that live a minute; if PostgreSQL
-- crashes they go, and so does every node's LISTEN connection, and with it every event queue.
CREATE UNLOGGED TABLE node_events (
  batch text PRIMARY KEY,
  events jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX node_events_created ON node_events (created_at);
