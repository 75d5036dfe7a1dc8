// Property: whatever any caller — each role, a bot, nobody — sends to any route of the table, with
// plausible or hostile values, the server answers without a 5xx and without hanging, keeps answering, and
// its database stays intact. Requests go four at a time, so the cases also race one another. fast-check
// prints the seed on failure; FC_SEED replays it, FC_RUNS runs longer (bench/fuzz.ts runs 200,000).
// (limits-property.test.ts probes the size and depth bounds of every parameter; this one their types.)
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { join } from "node:path";
import type { RealmRow, UserRow } from "../../src/db/schema";
import { routes } from "../../src/http/routes";
import { listRealms } from "../../src/store/realms";
import { findUserById } from "../../src/store/users";
import { refreshCallers, seedCallers, seedContent, type Auths } from "../helpers/fuzz-world";
import { describeFuzz, fuzzRequest, sendFuzz, type Pools } from "../helpers/route-fuzz";
import { startServer, testStorage, type TestServer } from "../helpers/server";

/** A request still unanswered after this long has hung (bounded ones take well under a second). */
const TIMEOUT_MS = 10_000;

let s: TestServer;
let auths: Auths;
let pools: Pools;
let owner: UserRow;
let realm: RealmRow;
const errors: string[] = [];
beforeAll(async () => {
  s = await startServer({ log: (line) => line.includes("unhandled error") && errors.push(line) });
  realm = (await listRealms(s.app.db))[0]!;
  owner = (await findUserById(s.app.db, s.owner.userId!))!;
  const callers = await seedCallers(s.app, realm, owner);
  auths = callers.auths;
  pools = await seedContent(s.url, auths.owner!, callers.userIds);
}, 60_000);
afterAll(() => s.stop());

test("every route, every caller, plausible and hostile values: no 5xx, no hang; the server answers and the database is intact", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fuzzRequest(routes, pools), { minLength: 4, maxLength: 4 }), async (batch) => {
      const answers = await Promise.all(batch.map((r) => sendFuzz(s.url, r, auths[r.caller], TIMEOUT_MS)));
      const bad = batch.flatMap((r, i) =>
        answers[i]!.hung || answers[i]!.status >= 500 ? [`${answers[i]!.hung ? "HUNG" : answers[i]!.status} ${describeFuzz(r)}`] : [],
      );
      expect({ bad, serverErrors: errors.splice(0) }).toEqual({ bad: [], serverErrors: [] });
      if (answers.some((a) => a.status === 401 || a.status === 403)) await refreshCallers(s.url, s.app, realm, owner, auths);
    }),
    { numRuns: Number(process.env.FC_RUNS ?? 600), seed: Number(process.env.FC_SEED ?? Date.now() % 2 ** 31) },
  );
  const me = await fetch(`${s.url}/api/v1/users/me`, { headers: { Authorization: auths.owner! } });
  expect(me.status).toBe(200);
  if (testStorage === "postgres") return; // the file check below is SQLite's
  const db = new Database(join(s.dataDir, "confab.db"), { readonly: true });
  try {
    expect(db.query("PRAGMA integrity_check").all()).toEqual([{ integrity_check: "ok" }]);
  } finally {
    db.close();
  }
}, 120_000);
