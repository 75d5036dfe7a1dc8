// Durability: a real server process is killed with SIGKILL in the middle of a burst of concurrent sends
// and started again on the same data directory. Every send that was answered with an id must be there,
// intact, and the database (and its full-text index) must pass SQLite's integrity checks.
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { serve, tempDir } from "../cli/run";
import { Client, ok } from "../helpers/client";

const dir = tempDir("confab-durability-");
afterAll(() => dir.remove());

test("answered sends survive SIGKILL; the database passes integrity_check", async () => {
  const first = await serve(dir.path);
  const email = /owner email:\s+(\S+)/.exec(first.stdout())![1]!;
  const key = /API key:\s+(\S+)/.exec(first.stdout())![1]!;
  const owner = new Client(first.url, email, key);
  const { id: channel } = await ok(owner.post("/channels/create", { name: "durable", subscribers: JSON.stringify([]) }));

  // Eight concurrent senders; each records what the server acknowledged with an id.
  const answered = new Map<number, string>();
  let stop = false;
  const sender = async (w: number) => {
    for (let i = 0; !stop; i++) {
      const content = `burst ${w}-${i} ${crypto.randomUUID()} **bold** :smile:`;
      try {
        const res = await fetch(`${first.url}/api/v1/messages`, {
          method: "POST",
          headers: { Authorization: owner.auth!, "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ type: "stream", to: String(channel), topic: `t${w % 3}`, content }),
        });
        const body = (await res.json()) as { result: string; id?: number };
        if (body.result === "success" && body.id) answered.set(body.id, content);
      } catch {
        return; // the server is gone
      }
    }
  };
  const workers = Array.from({ length: 8 }, (_, w) => sender(w));
  while (answered.size < 400) await Bun.sleep(5);
  first.proc.kill("SIGKILL");
  await first.proc.exited;
  stop = true;
  await Promise.all(workers);
  expect(answered.size).toBeGreaterThanOrEqual(400);

  const second = await serve(dir.path);
  try {
    const again = new Client(second.url, email, key);
    const ids = [...answered.keys()].sort((a, b) => a - b);
    const found = new Map<number, string>();
    for (let i = 0; i < ids.length; i += 500) {
      const r = await ok(again.get("/messages", { message_ids: JSON.stringify(ids.slice(i, i + 500)), apply_markdown: false }));
      for (const m of r.messages) found.set(m.id, m.content);
    }
    const missing = ids.filter((id) => found.get(id) !== answered.get(id));
    expect(missing).toEqual([]);
    // The search index was written in the same transactions: it finds them too.
    const [someId] = ids;
    const word = answered.get(someId!)!.split(" ")[2]!.split("-")[0]!;
    const hit = await ok(again.get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: JSON.stringify([["search", word]]) }));
    expect(hit.messages.length).toBeGreaterThan(0);
    await ok(again.post("/messages", { type: "stream", to: String(channel), topic: "after", content: "still writable" }));
  } finally {
    await second.stop();
  }
  const db = new Database(join(dir.path, "confab.db"), { readonly: true });
  try {
    expect(db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").all()).toEqual([{ integrity_check: "ok" }]);
    // Each message and its recipients' rows were committed together: the sender's row is there for every one.
    const orphans = db.query<{ n: number }, [string]>(
      "SELECT COUNT(*) AS n FROM messages m WHERE m.id IN (SELECT value FROM json_each(?)) AND NOT EXISTS (SELECT 1 FROM user_messages um WHERE um.message_id = m.id)",
    );
    expect(orphans.get(JSON.stringify([...answered.keys()]))!.n).toBe(0);
  } finally {
    db.close();
  }
  const rw = new Database(join(dir.path, "confab.db"));
  try {
    expect(() => rw.run("INSERT INTO messages_fts (messages_fts) VALUES ('integrity-check')")).not.toThrow();
  } finally {
    rw.close();
  }
}, 60_000);
