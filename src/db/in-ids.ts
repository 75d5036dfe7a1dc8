import { type Column, type SQL, sql } from "drizzle-orm";
import type { Db } from "./client";
import { engineOf } from "./engine";

// `column IN (ids)` with the ids as one parameter: the same SQL for any number of ids, so its statement
// is compiled once and one value is bound instead of one per id (a narrow fetch's lookups of 100 ids
// spent a quarter of their time there), and no list is too long for SQLite's limit on bound variables.
// SQLite reads the ids as a JSON array (`json_each`), PostgreSQL as an array literal cast to bigint[].

/** The condition for hand-written SQL (db/raw.ts), after the column: `… WHERE id ${inIdsSql(db)}`, with `idsValue(db, ids)` as its parameter. */
export const inIdsSql = (db: Db): string => (engineOf(db) === "postgres" ? "= ANY(CAST(? AS bigint[]))" : "IN (SELECT value FROM json_each(?))");

/** The ids as the parameter of `inIdsSql` or `inIdsPlaceholder`. */
export const idsValue = (db: Db, ids: Iterable<number>): string => (engineOf(db) === "postgres" ? `{${[...ids].join(",")}}` : JSON.stringify([...ids]));

/** `column IN (ids)` for drizzle's builders. */
export const inIds = (db: Db, column: Column, ids: Iterable<number>): SQL => idsCondition(db, column, idsValue(db, ids));

/** `inIds` for a prepared query (db/prepared.ts): the ids come at run time as `{ ids: idsValue(db, ids) }`. */
export const inIdsPlaceholder = (db: Db, column: Column): SQL => idsCondition(db, column, sql.placeholder("ids"));

const idsCondition = (db: Db, column: Column, value: unknown): SQL =>
  engineOf(db) === "postgres" ? sql`${column} = ANY(CAST(${value} AS bigint[]))` : sql`${column} IN (SELECT value FROM json_each(${value}))`;

/**
 * The ids of a parameter as a table of one column, `value`, for hand-written SQL: `IN (SELECT value FROM
 * ${idsTable(db, "?2")})`, or `FROM ${idsTable(db, "?", "j")}` to join it as `j.value`.
 */
export const idsTable = (db: Db, param: string, alias?: string): string =>
  engineOf(db) === "postgres"
    ? `unnest(CAST(${param} AS bigint[])) AS ${alias ? `${alias}(value)` : "value"}`
    : `json_each(${param})${alias ? ` ${alias}` : ""}`;

/** An aggregate of a column's values in `idsValue`'s form, ordered by it (a list to pass back as a parameter). */
export const idsAggregate = (db: Db, column: string): string =>
  engineOf(db) === "postgres" ? `'{' || string_agg(CAST(${column} AS text), ',' ORDER BY ${column}) || '}'` : `json_group_array(${column} ORDER BY ${column})`;
