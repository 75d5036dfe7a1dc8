-- Hand-written (drizzle-kit does not create extensions); registered by `drizzle-kit generate --custom`.
-- citext: text compared case-insensitively, where the SQLite schema says COLLATE NOCASE (channel names,
-- topics). A trusted extension: the database's owner may create it.
CREATE EXTENSION IF NOT EXISTS citext;
