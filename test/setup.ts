// Preloaded by every `bun test` run (bunfig.toml): after the run's last file, what a test left running is
// stopped — bun's test runner calls no "exit" listener, so a PostgreSQL cluster shared by a run's files
// (test/helpers/server.ts on the PostgreSQL pass) would outlive it, and so would confab nodes a failed
// test never stopped (test/helpers/cluster.ts).
import { afterAll } from "bun:test";
import { killAllChildren } from "./helpers/children";
import { stopAllPostgres } from "./helpers/postgres";

afterAll(() => {
  killAllChildren();
  stopAllPostgres();
});
