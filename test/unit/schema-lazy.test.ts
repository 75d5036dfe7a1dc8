// The store's SQLite tables load their schema module on first use (src/db/schema/lazy.ts): the list
// there must name every table src/db/schema exports, each the very table object the module built.
import { expect, test } from "bun:test";
import { is } from "drizzle-orm";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "../../src/db/schema";
import { lazyTables } from "../../src/db/schema/lazy";

test("every table of src/db/schema, and nothing else, is in the lazy list, as the same object", () => {
  const declared = Object.entries(schema).filter(([, v]) => is(v, SQLiteTable));
  expect(Object.keys(lazyTables).sort()).toEqual(declared.map(([k]) => k).sort());
  for (const [name, table] of declared) expect({ name, same: (lazyTables as Record<string, unknown>)[name] === table }).toEqual({ name, same: true });
});
