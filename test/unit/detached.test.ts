// lib/detached.ts: a callback nobody awaits logs its failure (a rejection or a throw) instead of leaving
// an unhandled rejection.
import { expect, test } from "bun:test";
import { detached } from "../../src/lib/detached";
import { createLogger } from "../../src/lib/log";

test("a detached callback runs at once with its arguments and logs a rejection or a throw as `what`", async () => {
  const lines: string[] = [];
  const log = createLogger("debug", (l) => lines.push(l));
  const seen: number[] = [];
  detached(log, "sync ran", (n: number) => seen.push(n))(1);
  expect(seen).toEqual([1]); // before any await: timing as a plain call
  detached(log, "pump failed", async (n: number) => {
    seen.push(n);
    await Promise.resolve();
    throw new Error("database is locked");
  })(2);
  detached(log, "listener failed", () => {
    throw new Error("thrown at once");
  })();
  await Bun.sleep(0);
  expect(seen).toEqual([1, 2]);
  expect(lines.map((l) => l.replace(/^\S+ /, "").split(" error=")[0]).sort()).toEqual(["error listener failed", "error pump failed"]);
  expect(lines.join("\n")).toContain("database is locked");
  expect(lines.join("\n")).toContain("thrown at once");
});
