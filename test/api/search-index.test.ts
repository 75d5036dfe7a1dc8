// Search indexing in batches (actions/search-index.ts): a send leaves its message to the next batch, and
// a search indexes whatever is waiting first, so results are never behind the messages.
import { raw } from "../../src/db/raw";
import { mergeSearchIndex } from "../../src/store/messages";
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Client } from "../helpers/client";
import { ok } from "../helpers/client";
import { startServer, testStorage, type TestServer } from "../helpers/server";

let s: TestServer;
let ann: Client;
let room: number;

/** Whether the message is in the search index: FTS5's table, or PostgreSQL's search_tsv column. */
const indexed = async (id: number) =>
  !!(await raw(s.app.db).get(
    testStorage === "sqlite" ? "SELECT 1 FROM messages_fts_docsize WHERE id = ?" : "SELECT 1 FROM messages WHERE id = ? AND search_tsv IS NOT NULL",
    id,
  ));
const search = async (word: string) =>
  (
    await ok(ann.get("/messages", { anchor: "newest", num_before: 20, num_after: 0, narrow: JSON.stringify([{ operator: "search", operand: word }]) }))
  ).messages.map((m: any) => m.id);

beforeAll(async () => {
  s = await startServer();
  ann = await s.newUser({ name: "Ann Search" });
  room = (await ok(ann.post("/channels/create", { name: "search room", subscribers: [ann.userId] }))).id;
});
afterAll(() => s.stop());

test("a message waits for its batch; a search indexes it first; an edit before then is what gets indexed", async () => {
  const id = (await ok(ann.post("/messages", { type: "stream", to: room, topic: "t", content: "a zebracorn appears" }))).id;
  expect(await indexed(id)).toBe(false);
  await ok(ann.patch(`/messages/${id}`, { content: "a unicornfish appears" }));
  expect(await search("zebracorn")).toEqual([]);
  expect(await search("unicornfish")).toEqual([id]);
  expect(await indexed(id)).toBe(true);
  // Once indexed, an edit replaces the indexed text at once.
  await ok(ann.patch(`/messages/${id}`, { content: "a narwhalicorn appears" }));
  expect(await search("unicornfish")).toEqual([]);
  expect(await search("narwhalicorn")).toEqual([id]);
});

test("the indexer catches up without a search", async () => {
  const id = (await ok(ann.post("/messages", { type: "stream", to: room, topic: "t", content: "quietly indexed" }))).id;
  for (let i = 0; i < 100 && !(await indexed(id)); i++) await Bun.sleep(50); // the indexer runs every second
  expect(await indexed(id)).toBe(true);
});

test.if(testStorage === "sqlite")(
  "FTS5 merges in the indexer's slices, not inside COMMITs: segments a search's catch-up adds are merged soon after",
  async () => {
    const automerge = async () => (await raw(s.app.db).get<{ v: number }>("SELECT v FROM messages_fts_config WHERE k = 'automerge'"))?.v;
    for (let i = 0; i < 100 && (await automerge()) !== 0; i++) await Bun.sleep(20);
    expect(await automerge()).toBe(0);
    // Each search indexes the message just sent in a transaction of its own: one new segment each.
    for (let i = 0; i < 12; i++) {
      const id = (await ok(ann.post("/messages", { type: "stream", to: room, topic: "segments", content: `segmentword${i} here` }))).id;
      expect(await search(`segmentword${i}`)).toEqual([id]);
    }
    // Within the indexer's next runs (every second) nothing is left to merge: FTS5's merge command, asked
    // here, finds no work (with the indexer not merging, it would find a dozen segments to merge).
    await Bun.sleep(2500);
    expect(await mergeSearchIndex(s.app.db, 32)).toBe(false);
    for (let i = 0; i < 12; i++) expect((await search(`segmentword${i}`)).length).toBe(1);
  },
);
