// The floor under confab's start-up and memory: only the pieces of the owner's stack every confab start
// loads — bun:sqlite on a WAL file, drizzle over it with the one table of confab's schema a start reads
// first (the others load when used, src/db/schema/lazy.ts), Bun's server —
// answering GET / with a count, and nothing of confab's logic. (Elysia is not among them: confab loads
// it on the first request for a page or the web client, src/http/server.ts.) Compiled as confab is
// (--minify --bytecode), it shows what no change inside confab can take below.
// `bun bench/lib/stack-floor.ts PORT DB_FILE`.
import { Database } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { lazyTables } from "../../src/db/schema/lazy";

const [port, file] = process.argv.slice(2);
const sqlite = new Database(file!, { create: true });
sqlite.run("PRAGMA journal_mode = WAL");
sqlite.run("CREATE TABLE IF NOT EXISTS t (a)");
const db = drizzle(sqlite);
const count = sqlite.query("SELECT count(*) AS n FROM t");
Bun.serve({
  hostname: "127.0.0.1",
  port: Number(port),
  fetch: () => Response.json({ ...(count.get() as object), realms: lazyTables.realms ? 1 : 0, db: typeof db }),
});
