-- Hand-written (registered by `drizzle-kit generate --custom`): the confab nodes serving this database
-- (docs/scaling.md, section 3). Cluster state, like node_events: never copied by migrate-storage, no
-- SQLite twin. A node inserts its row when it starts (its name is new at every start), updates
-- heartbeat_at every 2 s and deletes the row when it stops cleanly; a row whose heartbeat is older than
-- a few seconds is a node that died. address: where other nodes reach it (cluster.advertise_url).
CREATE UNLOGGED TABLE nodes (
  name text PRIMARY KEY,
  address text NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
-- What a batch tells the other nodes besides its events: cached lookups it changed, memos it made
-- stale, rights it revoked (src/db/event-bus.ts). Null when there is nothing of the kind.
ALTER TABLE node_events ADD COLUMN notes jsonb;
