// People and organization on the compiled server:
//  - GET /user_groups/{id}/members/{user_id} on a group nested five levels deep with 10,000 members
//    (members spread over the five levels; the checked user sits at the deepest level): median latency;
//  - POST /register (every event type) for a realm of 5,000 users and 500 user groups: median latency.
// Data is made through confab's own actions on a closed data directory, then served by the executable.
import { join } from "node:path";
import { bootstrapFirstRealm } from "../src/actions/realms";
import { createUserGroup } from "../src/actions/user-groups";
import { insertUserTx } from "../src/actions/users";
import { createApp } from "../src/app";
import { loadConfig } from "../src/config";
import { createLogger } from "../src/lib/log";
import { median, serveExe, stop } from "./lib/proc";
import { basic, type Cred } from "./lib/seed";
import type { BenchContext, BenchResult } from "./lib/types";
import { mapInOrder } from "../src/lib/in-order";

const NESTED_MEMBERS = 10_000;
const LEVELS = 5;
const REGISTER_USERS = 5_000;
const REGISTER_GROUPS = 500;
const GROUP_SIZE = 25;
const CHECKS = Number(process.env.BENCH_CHECKS ?? 2000);
const REGISTERS = Number(process.env.BENCH_REGISTERS ?? 40);

/** A realm of `users` users (one transaction: no passwords, no per-user commit), and its owner's credentials. */
async function seed(
  dataDir: string,
  users: number,
  groups: (make: (members: number[], subgroups: number[], name: string) => Promise<number>, ids: number[]) => Promise<void>,
) {
  const app = await createApp(loadConfig({ dataDir }, {}), { batching: false, log: createLogger("error") });
  try {
    const first = (await bootstrapFirstRealm(app))!;
    await first.setPassword(); // the owner's password (argon2id), before the app closes
    const ids = await app.tx(
      async (tx) =>
        await mapInOrder(
          Array.from({ length: users }, (_, i) => i),
          async (i) => (await insertUserTx(app, tx, first.realm, { email: `p${i}@example.com`, fullName: `Person ${i}` }, null)).id,
        ),
    );
    await groups(
      async (members, subgroups, name) => (await createUserGroup(app, first.realm, first.owner, { name, description: "", members, subgroups })).group_id,
      ids,
    );
    return { owner: { id: first.owner.id, email: first.owner.email, key: first.owner.apiKey } as Cred, ids };
  } finally {
    app.close();
  }
}

async function serve(ctx: BenchContext, dataDir: string) {
  const { proc, url } = await serveExe(ctx.exe, dataDir, `${dataDir}.log`);
  return { proc, url };
}

/** Milliseconds per request, one request at a time (latency, not throughput). */
async function timed(n: number, request: () => Promise<Response>, check: (body: any) => void): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await request();
    const body = await res.json();
    out.push(performance.now() - t0);
    check(body);
  }
  return out;
}

const round = (x: number) => Math.round(x * 1000) / 1000;
const p = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;

export async function run(ctx: BenchContext): Promise<BenchResult> {
  // 1. Membership in a group nested five levels deep.
  ctx.log(`seeding ${NESTED_MEMBERS} users in a ${LEVELS}-level nested group`);
  const nestedDir = join(ctx.tmp, "nested");
  let top = 0;
  let deepest = 0;
  const nested = await seed(nestedDir, NESTED_MEMBERS, async (make, ids) => {
    const per = NESTED_MEMBERS / LEVELS;
    let inner: number[] = [];
    for (let level = LEVELS; level >= 1; level--) {
      const members = ids.slice((level - 1) * per, level * per);
      inner = [await make(members, inner, `level ${level}`)];
    }
    top = inner[0]!;
    deepest = ids[ids.length - 1]!;
  });
  let s = await serve(ctx, nestedDir);
  let checkMs: number[];
  try {
    const auth = basic(nested.owner);
    const url = `${s.url}/api/v1/user_groups/${top}/members/${deepest}`;
    await timed(
      200,
      () => fetch(url, { headers: { Authorization: auth } }),
      () => {},
    ); // warm-up
    ctx.log(`membership check x${CHECKS}`);
    checkMs = await timed(
      CHECKS,
      () => fetch(url, { headers: { Authorization: auth } }),
      (b) => {
        if (b.is_user_group_member !== true) throw new Error(`membership check: ${JSON.stringify(b)}`);
      },
    );
  } finally {
    await stop(s.proc);
  }

  // 2. register for 5,000 users and 500 groups.
  ctx.log(`seeding ${REGISTER_USERS} users and ${REGISTER_GROUPS} groups`);
  const regDir = join(ctx.tmp, "register");
  const reg = await seed(regDir, REGISTER_USERS, async (make, ids) => {
    for (let g = 0; g < REGISTER_GROUPS; g++) {
      const members = Array.from({ length: GROUP_SIZE }, (_, k) => ids[(g * 37 + k * 101) % ids.length]!);
      await make([...new Set(members)], [], `team ${g}`);
    }
  });
  s = await serve(ctx, regDir);
  let registerMs: number[];
  let registerBytes = 0;
  try {
    const auth = basic(reg.owner);
    const register = () => fetch(`${s.url}/api/v1/register`, { method: "POST", headers: { Authorization: auth } });
    await timed(5, register, () => {}); // warm-up
    ctx.log(`register x${REGISTERS}`);
    registerMs = await timed(REGISTERS, register, (b) => {
      // The owner, the users, and the bots the server gives every realm (the agent's, the notification bot).
      if (b.realm_users?.length < REGISTER_USERS + 1 || b.realm_user_groups?.length < REGISTER_GROUPS) throw new Error("register: incomplete state");
      registerBytes = JSON.stringify(b).length;
    });
  } finally {
    await stop(s.proc);
  }

  const checkMedian = round(median(checkMs));
  const registerMedian = round(median(registerMs));
  return {
    figures: {
      membership_check_requests: CHECKS,
      membership_check_median_ms: checkMedian,
      membership_check_p99_ms: round(p(checkMs, 0.99)),
      register_requests: REGISTERS,
      register_median_ms: registerMedian,
      register_p90_ms: round(p(registerMs, 0.9)),
      register_response_kb: Math.round(registerBytes / 1024),
    },
    targets: [
      { label: `membership check, ${LEVELS}-level nested group of ${NESTED_MEMBERS} members (median)`, value: checkMedian, unit: "ms", op: "<", limit: 2.001 },
      { label: `POST /register, ${REGISTER_USERS} users and ${REGISTER_GROUPS} groups (median)`, value: registerMedian, unit: "ms", op: "<", limit: 150.001 },
    ],
  };
}
