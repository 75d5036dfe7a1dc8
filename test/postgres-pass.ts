// The second pass of `npm test`: every test file that starts confab through test/helpers/server.ts, run
// again with its servers on PostgreSQL (CONFAB_TEST_STORAGE=postgres: one throwaway cluster per test
// process, a fresh database per server). Never silently skipped: without PostgreSQL's binaries it says
// why and fails nothing. `bun test/postgres-pass.ts [files…]` runs only those files.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { postgresMissing } from "./helpers/postgres";

/**
 * Files left out of the PostgreSQL pass, each with its reason: they look at the SQLite file itself or at
 * what only SQLite has. Nothing else is left out.
 */
export const EXCLUDED: Record<string, string> = {
  "test/api/message-durability.test.ts": "SIGKILLs a confab process on a SQLite file and runs PRAGMA integrity_check on the file",
  "test/cli/crash-operations.test.ts": "the CLI on the data directory's SQLite file: kills it mid-operation, then checks the file",
  "test/api/wal-checkpoint.test.ts": "SQLite's WAL checkpoints in a helper process, and the SQLite file after a stop",
  "test/cli/import.test.ts": "the CLI's import into new data directories' SQLite files (its one server exports into one)",
};

const root = join(import.meta.dir, "..");

/** Test files that start a server through the harness (test/api, test/integrations, test/compat and some of test/cli). */
export function serverTestFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(path);
      else if (e.name.endsWith(".test.ts") && /\bstartServer\b/.test(readFileSync(join(root, path), "utf8"))) out.push(path);
    }
  };
  walk("test");
  return out.sort();
}

if (import.meta.main) {
  const missing = postgresMissing("npm test, PostgreSQL pass");
  if (missing) process.exit(0);
  const asked = process.argv.slice(2);
  const files = asked.length ? asked : serverTestFiles().filter((f) => !(f in EXCLUDED));
  console.log(`PostgreSQL pass: ${files.length} test files on PostgreSQL; left out: ${Object.keys(EXCLUDED).length} (test/postgres-pass.ts says why)`);
  const proc = Bun.spawn([process.execPath, "test", "--timeout", "30000", ...files.map((f) => `./${f}`)], {
    cwd: root,
    env: { ...process.env, CONFAB_TEST_STORAGE: "postgres" },
    stdio: ["inherit", "inherit", "inherit"],
  });
  process.exit(await proc.exited);
}
