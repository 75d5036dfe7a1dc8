// A queue's backlog (src/events/queue.ts): plain message events are kept as ids in typed arrays, other
// events (and a message with a local echo) as the shared objects; across chunk boundaries, acknowledgements
// and mixed kinds, a poll sees every pending event in order, with its id and its user's flags.
import { expect, test } from "bun:test";
import { MessageCache } from "../../src/events/message-cache";
import { EventQueue } from "../../src/events/queue";
import type { ServerEvent } from "../../src/events/types";

test("mixed events across chunks come back in order, with ids and flags, after acknowledgements", async () => {
  const cache = new MessageCache(10_000);
  const q = new EventQueue(
    "q1",
    {
      queueId: "q1",
      userId: 7,
      realmId: 1,
      eventTypes: null,
      allPublicStreams: false,
      acceptsMessage: null,
      capabilities: {},
      applyMarkdown: true,
      clientGravatar: false,
      idleTimeoutSecs: 600,
    },
    cache,
  );
  const expected: { kind: string; value: number; flags?: string[] }[] = [];
  for (let i = 1; i <= 2600; i++) {
    if (i % 7 === 0) {
      q.push({ type: "typing", op: "start", n: i } as ServerEvent);
      expected.push({ kind: "typing", value: i });
      continue;
    }
    cache.put({ message: { id: i, type: "private", content: `<p>m${i}</p>` }, raw_content: `m${i}`, avatar_gravatar: false });
    const flags = i % 3 ? ["read"] : [];
    const echo = i % 11 === 0;
    q.push(Object.freeze({ type: "message", message_id: i, ...(echo ? { local_echo: { queue_id: "q1", local_id: `l${i}` } } : {}) }), flags);
    expected.push({ kind: "message", value: i, flags });
  }
  const check = async (from: number) => {
    const got = await q.pending();
    expect(got.length).toBe(expected.length - from);
    got.forEach((e, j) => {
      const want = expected[from + j]!;
      expect(e.id).toBe(from + j);
      if (want.kind === "typing") expect(e).toMatchObject({ type: "typing", n: want.value });
      else {
        expect(e).toMatchObject({ type: "message", flags: want.flags, message: { id: want.value, content: `<p>m${want.value}</p>` } });
        if (want.value % 11 === 0) expect(e.local_message_id).toBe(`l${want.value}`);
        else expect(e.local_message_id).toBeUndefined();
      }
    });
  };
  await check(0);
  q.prune(1500); // past the first chunk boundary
  await check(1501);
  q.prune(expected.length - 1);
  expect(await q.pending()).toEqual([]);
  q.push({ type: "heartbeat" });
  expect(await q.pending()).toEqual([{ type: "heartbeat", id: expected.length }]);
});
