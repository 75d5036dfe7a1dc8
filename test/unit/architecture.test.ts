// The shape of the code, checked from its imports: no import circles anywhere in src/ (the web client
// included) and cli/, each layer imports only the layers below it (docs/architecture.md), and every
// SQL statement and drizzle query lives in src/store (or src/db: the connection, migrations, the writer).
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { circles, importGraph, ROOT, sourceFiles } from "../helpers/import-graph";

const graph = importGraph(sourceFiles("src", "cli"));

/** Which folders (or files) a file may import, by the folder it sits in; the first matching prefix decides. */
const MAY_IMPORT: [string, string[]][] = [
  // The client speaks only HTTP; its organization settings pages (lazy chunk) read the server's own
  // property tables, so every setting the API exposes gets its control from the same list.
  ["src/web/", ["src/web/", "src/domain/realm-settings.ts", "src/domain/user-settings.ts", "src/domain/group-settings.ts", "src/domain/channels.ts"]],
  ["src/lib/", ["src/lib/", "src/domain/errors.ts"]],
  ["src/domain/", ["src/domain/", "src/lib/", "src/db/schema", "src/events/types.ts", "src/render/"]],
  ["src/render/", ["src/render/", "src/domain/", "src/lib/"]],
  ["src/integrations/", ["src/integrations/", "src/domain/", "src/lib/", "src/render/"]],
  ["src/config/", ["src/config/", "src/domain/", "src/lib/"]],
  ["src/db/", ["src/db/", "src/domain/", "src/lib/", "src/events/types.ts", "migrations/"]],
  ["src/store/", ["src/store/", "src/db/", "src/domain/", "src/lib/"]],
  [
    "src/events/state/",
    [
      "src/events/",
      "src/serializers/",
      "src/store/",
      "src/db/",
      "src/domain/",
      "src/lib/",
      "src/render/",
      "src/integrations/",
      "src/context.ts",
      "src/access/",
    ],
  ],
  ["src/events/", ["src/events/", "src/domain/", "src/lib/"]],
  ["src/access/", ["src/access/", "src/store/", "src/db/", "src/domain/", "src/lib/", "src/events/types.ts", "src/context.ts"]],
  [
    "src/serializers/",
    ["src/serializers/", "src/access/", "src/store/", "src/db/", "src/domain/", "src/lib/", "src/render/", "src/events/types.ts", "src/context.ts"],
  ],
  ["src/context.ts", ["src/config/", "src/db/", "src/events/", "src/lib/"]],
];

/** What no file of a folder may import, whatever else it does (upward references). */
const NEVER: [string, string[]][] = [
  ["src/", ["cli/"]],
  ["src/actions/", ["src/http/", "src/runtime/", "src/app.ts"]],
  ["src/runtime/", ["src/http/", "src/app.ts"]],
  ["src/events/", ["src/http/", "src/runtime/", "src/app.ts"]],
];

/** Only the executable's entry (cli/) and the HTTP layer itself import src/http. */
const HTTP_IMPORTERS = ["cli/", "src/http/"];

function violations(): string[] {
  const out: string[] = [];
  for (const [file, targets] of graph) {
    const allowed = MAY_IMPORT.find(([prefix]) => file.startsWith(prefix))?.[1];
    const never = NEVER.filter(([prefix]) => file.startsWith(prefix)).flatMap(([, v]) => v);
    for (const t of targets) {
      if (allowed && !allowed.some((a) => t.startsWith(a))) out.push(`${file} imports ${t}`);
      else if (never.some((n) => t.startsWith(n))) out.push(`${file} imports ${t}`);
      else if (t.startsWith("src/http/") && !HTTP_IMPORTERS.some((h) => file.startsWith(h))) out.push(`${file} imports ${t}`);
    }
  }
  return out;
}

/** What a query looks like in the sources: raw statements, drizzle's builders on a database, its sql tag. */
const SQL: [string, RegExp][] = [
  ["a prepared or cached statement", /\.(query|prepare)\s*[<(]/],
  [
    "a raw statement",
    /\.(run|exec)\(\s*[`"'](?:SELECT|INSERT|UPDATE|DELETE|REPLACE|PRAGMA|VACUUM|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|CREATE|DROP|ALTER|WITH)\b/i,
  ],
  ["drizzle's sql tag", /\bsql`/],
  ["a drizzle builder on a database", /\b(db|tx\.db|app\.db)\s*\.\s*(select|selectDistinct|insert|update|delete|run|all|get|values)\s*\(/],
  ["drizzle itself", /from\s+["']drizzle-orm/],
  ["a database connection", /new\s+Database\s*\(|from\s+["']bun:sqlite["']/],
];
const SQL_HOMES = ["src/store/", "src/db/", "src/web/"];

function sqlOutsideStore(): string[] {
  const out: string[] = [];
  for (const file of graph.keys()) {
    if (SQL_HOMES.some((h) => file.startsWith(h))) continue;
    const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
    lines.forEach((line, i) => {
      if (/^\s*(\/\/|\*)/.test(line)) return;
      for (const [what, re] of SQL) if (re.test(line)) out.push(`${file}:${i + 1}: ${what}`);
    });
  }
  return out;
}

describe("architecture", () => {
  test("the sources are read (the graph is not empty)", () => {
    expect(graph.size).toBeGreaterThan(300);
    expect(graph.get("src/app.ts")).toContain("src/context.ts");
  });

  test("no import circles in src/ and cli/", () => {
    expect(circles(graph).map((c) => c.join(" → "))).toEqual([]);
  });

  test("each layer imports only what sits below it", () => {
    expect(violations()).toEqual([]);
  });

  test("no SQL or drizzle query outside src/store and src/db", () => {
    expect(sqlOutsideStore()).toEqual([]);
  });
});
