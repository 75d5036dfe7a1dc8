import { type Column, type SQL, sql } from "drizzle-orm";

/**
 * `column IN (ids)` with the ids as one JSON parameter: the same SQL for any number of ids, so its
 * statement is compiled once and drizzle binds one value instead of one per id (a narrow fetch's
 * lookups of 100 ids spent a quarter of their time there), and no list is too long for SQLite's
 * limit on bound variables.
 */
export const inIds = (column: Column, ids: Iterable<number>): SQL => sql`${column} IN (SELECT value FROM json_each(${JSON.stringify([...ids])}))`;

/** `inIds` for a prepared query (db/prepared.ts): the ids come at run time as `{ ids: idsValue(ids) }`. */
export const inIdsPlaceholder = (column: Column): SQL => sql`${column} IN (SELECT value FROM json_each(${sql.placeholder("ids")}))`;
export const idsValue = (ids: Iterable<number>) => JSON.stringify([...ids]);
