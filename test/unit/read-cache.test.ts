// db/read-cache.ts: a load that straddled a change which drops entries is answered but not kept; one
// that straddled a change leaving them alone (a send) is kept.
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { ReadCache } from "../../src/db/read-cache";

test("only a drop during a load keeps its answer out of the cache", async () => {
  const cache = new ReadCache(new Database(":memory:"));
  let loads = 0;
  const straddling = (during: () => void) => async () => {
    loads++;
    await Promise.resolve();
    during();
    return `v${loads}`;
  };
  // A send ends while the lookup is awaited: nothing it could make stale, so the answer is kept.
  expect(
    await cache.get(
      "user:1",
      straddling(() => cache.changed({ rolledBack: false, lookups: false })),
    ),
  ).toBe("v1");
  expect(
    await cache.get(
      "user:1",
      straddling(() => {}),
    ),
  ).toBe("v1");
  // A change to users ends meanwhile: answered, not kept.
  expect(
    await cache.get(
      "user:2",
      straddling(() => cache.changed({ rolledBack: false, lookups: true })),
    ),
  ).toBe("v2");
  expect(
    await cache.get(
      "user:2",
      straddling(() => {}),
    ),
  ).toBe("v3");
  // Memos: a forget or a rollback meanwhile keeps the answer out; an ordinary change does not.
  expect(
    await cache.memo(
      "recipients:1",
      straddling(() => cache.changed({ rolledBack: false, lookups: true })),
    ),
  ).toBe("v4");
  expect(
    await cache.memo(
      "recipients:1",
      straddling(() => {}),
    ),
  ).toBe("v4");
  expect(
    await cache.memo(
      "recipients:2",
      straddling(() => cache.forget("recipients:")),
    ),
  ).toBe("v5");
  expect(
    await cache.memo(
      "recipients:2",
      straddling(() => {}),
    ),
  ).toBe("v6");
  expect(
    await cache.memo(
      "recipients:3",
      straddling(() => cache.changed({ rolledBack: true, lookups: false })),
    ),
  ).toBe("v7");
  expect(
    await cache.memo(
      "recipients:3",
      straddling(() => {}),
    ),
  ).toBe("v8");
});
