// Small pieces of hand-written SQL (db/raw.ts) that the two engines spell differently, one function each.
import type { Db } from "./client";
import { engineOf } from "./engine";

/** A join whose tables SQLite must visit in the written order (`CROSS JOIN … ON`); PostgreSQL's planner chooses, and `CROSS JOIN` takes no ON there. */
export const joinInOrder = (db: Db): string => (engineOf(db) === "postgres" ? "JOIN" : "CROSS JOIN");

/** A boolean member of a JSON column (SQLite: 1, 0 or NULL; PostgreSQL: a boolean or NULL). */
export const jsonBoolean = (db: Db, column: string, key: string): string =>
  engineOf(db) === "postgres" ? `CAST(${column}->>'${key}' AS boolean)` : `json_extract(${column}, '$.${key}')`;

/**
 * In a query grouped with `MAX(idColumn)`: `column` as the row holding that maximum has it (a topic as
 * its latest message spells it). SQLite gives a bare column exactly that; PostgreSQL needs it asked.
 */
export const ofLatestRow = (db: Db, column: string, idColumn: string): string =>
  engineOf(db) === "postgres" ? `(array_agg(${column} ORDER BY ${idColumn} DESC))[1]` : column;

/**
 * What PostgreSQL's search index holds for a message: its topic and visible text, with everything but
 * letters and digits made a space. Words are then what SQLite's FTS5 (unicode61) and the search
 * terms (domain/narrow.ts) take them to be; PostgreSQL's own parser would keep a URL or an email
 * address whole, and "http" would not find a link.
 */
export const searchDocument = (topic: string, text: string): string => `${topic} ${text}`.replace(/[^\p{L}\p{N}]+/gu, " ");

/**
 * `JOIN` to the ids of `table AS alias` that `conditions` (written with `alias.`) bound by the outer rows. PostgreSQL will not turn an
 * inequality on an outer row (`id > s.delivered_through`) into an index bound of a join: it read every
 * message of each channel and filtered (7.5 ms against 0.3 ms for one user's 16 channels of 20,000
 * messages). A LATERAL subquery kept apart by `OFFSET 0` is searched by both bounds. SQLite's planner
 * seeks by both already, and has no LATERAL.
 */
export const joinBounded = (db: Db, table: string, alias: string, conditions: string): string =>
  engineOf(db) === "postgres"
    ? `JOIN LATERAL (SELECT ${alias}.id FROM ${table} ${alias} WHERE ${conditions} OFFSET 0) ${alias} ON true`
    : `JOIN ${table} ${alias} ON ${conditions}`;
