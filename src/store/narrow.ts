// The messages a compiled narrow selects (domain/narrow.ts compiles GET /messages' narrow to SQL
// conditions): by id, around an anchor, the first unread. Each row is an id and the viewer's flags.
import type { Db } from "../db/client";
import { engineOf } from "../db/engine";
import { idsTable, idsValue } from "../db/in-ids";
import { allPlannedPerRun, type Param, raw } from "../db/raw";
import { type CompiledNarrow, forPostgres } from "../domain/narrow";

export interface NarrowRow {
  id: number;
  flags: number;
}

/** The narrow's query with `extra` conditions and `tail` (order, limit), and its parameters before `more`. */
function query(db: Db, compiled: CompiledNarrow, extra: string[], tail: string, ...more: Param[]): Promise<NarrowRow[]> | NarrowRow[] {
  // domain/narrow.ts compiles SQLite's SQL; PostgreSQL reads its own version of it.
  const c = engineOf(db) === "postgres" ? forPostgres(compiled) : compiled;
  const where = [...c.where, ...extra.map((e) => e.replaceAll("$id", c.idCol))].join(" AND ") || "true";
  const sql = `SELECT ${c.idCol} AS id, ${c.flagsCol} AS flags FROM ${c.from} WHERE ${where}${tail.replaceAll("$id", c.idCol)}`;
  const params = [...(c.params as Param[]), ...more];
  return c.search ? allPlannedPerRun<NarrowRow>(db, sql, ...params) : raw(db).all<NarrowRow>(sql, ...params);
}

/** The narrow's messages among these ids, oldest first. */
export const rowsWithIds = async (db: Db, c: CompiledNarrow, ids: number[]): Promise<NarrowRow[]> =>
  query(db, c, [`$id IN (SELECT value FROM ${idsTable(db, "?")})`], " ORDER BY $id", idsValue(db, ids));

/** Up to `limit` of the narrow's messages at or below `bound` (null: the newest), oldest first. */
export const rowsBefore = async (db: Db, c: CompiledNarrow, bound: number | null, limit: number): Promise<NarrowRow[]> =>
  (await query(db, c, bound === null ? [] : ["$id <= ?"], " ORDER BY $id DESC LIMIT ?", ...(bound === null ? [] : [bound]), limit)).reverse();

/** Up to `limit` of the narrow's messages at or above `bound` (null: the oldest), oldest first. */
export const rowsAfter = async (db: Db, c: CompiledNarrow, bound: number | null, limit: number): Promise<NarrowRow[]> =>
  query(db, c, bound === null ? [] : ["$id >= ?"], " ORDER BY $id ASC LIMIT ?", ...(bound === null ? [] : [bound]), limit);

/** The narrow's message with this id, if it has it. */
export const rowsAt = async (db: Db, c: CompiledNarrow, id: number): Promise<NarrowRow[]> => query(db, c, ["$id = ?"], "", id);

/** The oldest unread message of a narrow compiled over the viewer's rows (forceUserMessages). */
export const firstUnreadId = async (db: Db, c: CompiledNarrow): Promise<number | undefined> =>
  (await query(db, c, ["(um.flags & 1) = 0"], " ORDER BY $id ASC LIMIT 1"))[0]?.id;
