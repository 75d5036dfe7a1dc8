// The server's WAL checkpoints run in a helper process (src/db/checkpointer.ts), not inside its COMMITs
// on the event loop: a real server on a SQLite file, a burst of sends, then what the file shows.
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { CHECKPOINT_FRAMES } from "../../src/db/checkpointer";
import { serve, tempDir } from "../cli/run";
import { Client, ok } from "../helpers/client";

const dir = tempDir("confab-checkpoint-");
afterAll(() => dir.remove());

/** Processes whose command line runs the checkpoint helper on `file`. */
function helpers(file: string): number[] {
  return readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        const args = readFileSync(`/proc/${p}/cmdline`, "utf8");
        return args.includes("wal_checkpoint(PASSIVE)") && args.includes(file);
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

async function metricValue(url: string, name: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1] ?? NaN);
}

test("a burst's WAL is copied by the helper process; after stop the database file alone holds every message", async () => {
  const s = await serve(dir.path);
  const file = join(dir.path, "confab.db");
  const owner = new Client(s.url, /owner email:\s+(\S+)/.exec(s.stdout())![1]!, /API key:\s+(\S+)/.exec(s.stdout())![1]!);
  const { id: channel } = await ok(owner.post("/channels/create", { name: "wal", subscribers: JSON.stringify([]) }));
  expect(helpers(file)).toEqual([]); // none until a checkpoint is needed

  // 8 concurrent senders, 2 KB each: several thousand WAL frames.
  const filler = "lorem ipsum dolor sit amet ".repeat(80);
  const SENDS = 640;
  await Promise.all(
    Array.from({ length: 8 }, async (_, w) => {
      for (let i = 0; i < SENDS / 8; i++)
        await ok(owner.post("/messages", { type: "stream", to: String(channel), topic: `t${w}`, content: `${w}-${i} ${filler}` }));
    }),
  );
  const deadline = Date.now() + 10_000;
  while (!((await metricValue(s.url, "confab_wal_checkpoint_seconds_count")) >= 1) && Date.now() < deadline) await Bun.sleep(50);
  expect(await metricValue(s.url, "confab_wal_checkpoint_seconds_count")).toBeGreaterThanOrEqual(1);
  const running = helpers(file);
  expect(running.length).toBe(1);
  expect(running).not.toContain(s.proc.pid); // another process, not the server

  // It keeps up: once the sends stop, less than a checkpoint's worth waits to be copied.
  const look = new Database(file);
  const { log, checkpointed } = look.query<{ log: number; checkpointed: number }, []>("PRAGMA wal_checkpoint(NOOP)").get()!;
  look.close();
  expect(log).toBeGreaterThan(0);
  expect(log - checkpointed).toBeLessThan(CHECKPOINT_FRAMES);

  // A clean stop leaves the whole database in its file: a copy of that file alone has every message.
  expect(await s.stop()).toBe(0);
  expect(statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0).toBe(0);
  mkdirSync(join(dir.path, "copy"));
  copyFileSync(file, join(dir.path, "copy", "confab.db"));
  const copy = new Database(join(dir.path, "copy", "confab.db"), { readonly: true });
  const { n } = copy.query<{ n: number }, []>("SELECT count(*) AS n FROM messages WHERE content LIKE '%lorem ipsum dolor sit amet'").get()!;
  copy.close();
  expect(n).toBe(SENDS);
  const gone = Date.now() + 5_000;
  while (helpers(file).length && Date.now() < gone) await Bun.sleep(20);
  expect(helpers(file)).toEqual([]); // the helper ended with the server
});
