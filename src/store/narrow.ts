// The messages a compiled narrow selects (domain/narrow.ts compiles GET /messages' narrow to SQL
// conditions): by id, around an anchor, the first unread. Each row is an id and the viewer's flags.
import type { Db } from "../db/client";
import type { CompiledNarrow } from "../domain/narrow";
import { joinInOrder } from "../db/dialect";
import { engineOf, sqliteOnly } from "../db/engine";
import { type Param, raw } from "../db/raw";
import { idsTable, idsValue } from "../db/in-ids";

export interface NarrowRow {
  id: number;
  flags: number;
}

const selectFrom = (db: Db, c: CompiledNarrow, extra: string[] = []) =>
  `SELECT ${c.idCol} AS id, ${c.flagsCol} AS flags FROM ${fromOf(db, c)} WHERE ${[...c.where, ...extra].join(" AND ") || "true"}`;

/** The compiled FROM clause, whose CROSS JOINs are SQLite's join-order hint (db/dialect.ts). Search is FTS5's, on SQLite alone for now. */
function fromOf(db: Db, c: CompiledNarrow): string {
  if (engineOf(db) === "sqlite") return c.from;
  if (c.search) sqliteOnly(db, "Search");
  return c.from.replaceAll("CROSS JOIN ", `${joinInOrder(db)} `);
}

/** The narrow's messages among these ids, oldest first. */
export const rowsWithIds = async (db: Db, c: CompiledNarrow, ids: number[]): Promise<NarrowRow[]> =>
  await raw(db).all<NarrowRow>(
    `${selectFrom(db, c, [`${c.idCol} IN (SELECT value FROM ${idsTable(db, "?")})`])} ORDER BY ${c.idCol}`,
    ...(c.params as Param[]),
    idsValue(db, ids),
  );

/** Up to `limit` of the narrow's messages at or below `bound` (null: the newest), oldest first. */
export const rowsBefore = async (db: Db, c: CompiledNarrow, bound: number | null, limit: number): Promise<NarrowRow[]> =>
  (
    await raw(db).all<NarrowRow>(
      `${selectFrom(db, c, bound === null ? [] : [`${c.idCol} <= ?`])} ORDER BY ${c.idCol} DESC LIMIT ?`,
      ...(c.params as Param[]),
      ...(bound === null ? [] : [bound]),
      limit,
    )
  ).reverse();

/** Up to `limit` of the narrow's messages at or above `bound` (null: the oldest), oldest first. */
export const rowsAfter = async (db: Db, c: CompiledNarrow, bound: number | null, limit: number): Promise<NarrowRow[]> =>
  await raw(db).all<NarrowRow>(
    `${selectFrom(db, c, bound === null ? [] : [`${c.idCol} >= ?`])} ORDER BY ${c.idCol} ASC LIMIT ?`,
    ...(c.params as Param[]),
    ...(bound === null ? [] : [bound]),
    limit,
  );

/** The narrow's message with this id, if it has it. */
export const rowsAt = async (db: Db, c: CompiledNarrow, id: number): Promise<NarrowRow[]> =>
  await raw(db).all<NarrowRow>(selectFrom(db, c, [`${c.idCol} = ?`]), ...(c.params as Param[]), id);

/** The oldest unread message of a narrow compiled over the viewer's rows (forceUserMessages). */
export const firstUnreadId = async (db: Db, c: CompiledNarrow): Promise<number | undefined> =>
  (await raw(db).get<{ id: number }>(`${selectFrom(db, c, ["(um.flags & 1) = 0"])} ORDER BY ${c.idCol} ASC LIMIT 1`, ...(c.params as Param[])))?.id;
