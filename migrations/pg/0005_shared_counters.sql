-- Hand-written (registered by `drizzle-kit generate --custom`): counters every confab node shares
-- (docs/scaling.md, section 6): failed logins and password-reset requests per key, written through
-- by the node that counts one; API requests per key and aligned window, added by each node every
-- second. Cluster state like node_events: never copied by migrate-storage, no SQLite twin (one SQLite
-- server counts in memory). UNLOGGED: a PostgreSQL crash forgets them, as a restart forgets SQLite's.
CREATE UNLOGGED TABLE rate_counters (
  key text PRIMARY KEY,
  -- UNIX milliseconds when the count's window ends
  reset_at bigint NOT NULL,
  count integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX rate_counters_reset ON rate_counters (reset_at);
