-- Hand-written (registered by `drizzle-kit generate --custom`): when the last ext_widget event of each
-- widget scope left, for the nodes to share the throttle (docs/scaling.md, section 8): a push's
-- transaction sends an event only if its conditional upsert of the scope's mark wins. Cluster state like
-- node_events: never copied by migrate-storage, no SQLite twin (one SQLite server throttles in memory).
CREATE UNLOGGED TABLE widget_event_marks (
  scope text PRIMARY KEY,
  -- UNIX milliseconds of the scope's last event
  sent_at bigint NOT NULL
);
