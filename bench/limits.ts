// Issue 12's measurements, repeated on the compiled server (the tests assert the behaviour; this gives
// the figures): oversized and deeply nested parameters next to a concurrent request, failed logins
// beside a valid key, CLI revocations against held long-polls, the queue bound, large bodies.
import { join } from "node:path";
import { connect } from "node:net";
import { median, rssMb, serveExe, stop } from "./lib/proc";
import { basic, seedUsers, type Cred } from "./lib/seed";
import type { BenchContext, BenchResult } from "./lib/types";

const round = (n: number) => Math.round(n * 10) / 10;

const encode = (params: Record<string, unknown>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, typeof v === "string" ? v : JSON.stringify(v)])).toString();

/** One API call; `params` may be a form already encoded (so that encoding is not timed). */
function call(url: string, c: Cred | null, method: string, path: string, params: Record<string, unknown> | string = {}) {
  const form = typeof params === "string" ? params : encode(params);
  const get = method === "GET";
  return fetch(`${url}/api/v1${path}${get ? `?${form}` : ""}`, {
    method,
    headers: { ...(c ? { Authorization: basic(c) } : {}), "Content-Type": "application/x-www-form-urlencoded" },
    body: get ? undefined : form,
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
}

/** The big request's time and a concurrent GET /users/me's, medians of 5. */
async function beside(url: string, other: Cred, big: () => Promise<{ status: number }>) {
  const bigMs: number[] = [];
  const otherMs: number[] = [];
  let status = 0;
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const [a] = await Promise.all([
      big().then((r) => (bigMs.push(performance.now() - t0), r)),
      call(url, other, "GET", "/users/me").then((r) => (otherMs.push(performance.now() - t0), r)),
    ]);
    status = a.status;
  }
  return { status, ms: round(median(bigMs)), other_ms: round(median(otherMs)) };
}

async function heldPollEnd(url: string, c: Cred) {
  const q = (await call(url, c, "POST", "/register", { event_types: ["message"] })).body;
  const ended = call(url, c, "GET", "/events", { queue_id: q.queue_id, last_event_id: q.last_event_id }).then(() => performance.now());
  await Bun.sleep(100);
  return { queue: q.queue_id as string, ended };
}

async function cli(exe: string, dataDir: string, args: string[]) {
  const p = Bun.spawn([exe, ...args, "--data-dir", dataDir], { stdout: "ignore", stderr: "inherit" });
  await p.exited;
  return performance.now();
}

function declaredHuge(url: string, c: Cred) {
  const u = new URL(url);
  const t0 = performance.now();
  return new Promise<{ status: number; json: boolean; ms: number }>((resolve) => {
    const sock = connect(Number(u.port), u.hostname, () =>
      sock.write(
        `POST /api/v1/messages HTTP/1.1\r\nHost: ${u.host}\r\nAuthorization: ${basic(c)}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${120 * 2 ** 20}\r\n\r\ncontent=`,
      ),
    );
    let text = "";
    sock.on("data", (d) => {
      text += d;
      const i = text.indexOf("\r\n\r\n");
      if (i < 0) return;
      sock.destroy();
      resolve({ status: Number(text.split(" ")[1]), json: text.slice(i + 4).startsWith("{"), ms: round(performance.now() - t0) });
    });
  });
}

export async function run(ctx: BenchContext): Promise<BenchResult> {
  const dataDir = join(ctx.tmp, "data");
  const { owner, users } = await seedUsers(dataDir, 8);
  const [ann, bob, cat, dan] = users as [Cred, Cred, Cred, Cred];
  const { proc, url } = await serveExe(ctx.exe, dataDir, join(ctx.tmp, "server.log"));
  const f: Record<string, number | string> = {};
  try {
    const own = (n: number, id: number) => Array.from({ length: n }, () => id);
    ctx.log("oversized lists next to a concurrent request");
    const principals100k = encode({ subscriptions: [{ name: "general" }], principals: own(100_000, ann.id) });
    const principals300k = encode({ subscriptions: [{ name: "general" }], principals: own(300_000, owner.id) });
    const to100k = encode({ type: "direct", to: own(100_000, bob.id), content: "hi" });
    const p = await beside(url, owner, () => call(url, ann, "POST", "/users/me/subscriptions", principals100k));
    Object.assign(f, { principals_100k_status: p.status, principals_100k_ms: p.ms, principals_100k_concurrent_users_me_ms: p.other_ms });
    const o = await beside(url, ann, () => call(url, owner, "POST", "/users/me/subscriptions", principals300k));
    Object.assign(f, { owner_principals_300k_status: o.status, owner_principals_300k_ms: o.ms, owner_principals_300k_concurrent_users_me_ms: o.other_ms });
    const t = await beside(url, owner, () => call(url, ann, "POST", "/messages", to100k));
    Object.assign(f, { dm_to_100k_status: t.status, dm_to_100k_ms: t.ms, dm_to_100k_concurrent_users_me_ms: t.other_ms });
    const deep = "[".repeat(10_000) + "]".repeat(10_000);
    f.dm_to_nested_10k_status = (await call(url, ann, "POST", "/messages", { type: "direct", to: deep, content: "hi" })).status;

    ctx.log("CLI revocations against held long-polls");
    const r = await heldPollEnd(url, cat);
    const regenerated = await cli(ctx.exe, dataDir, ["user", "api-key", "--regenerate", cat.email]);
    f.cli_regenerate_poll_ended_ms_after_cli_exit = round((await r.ended) - regenerated);
    await call(url, owner, "POST", "/messages", { type: "direct", to: [cat.id], content: "after" });
    f.cli_regenerate_old_key_events_status = (await call(url, cat, "GET", "/events", { queue_id: r.queue, dont_block: true })).status;
    const d = await heldPollEnd(url, dan);
    const deactivated = await cli(ctx.exe, dataDir, ["user", "deactivate", dan.email]);
    f.cli_deactivate_poll_ended_ms_after_cli_exit = round((await d.ended) - deactivated);

    ctx.log("failed logins beside a valid key");
    for (let i = 0; i < 10; i++) await call(url, null, "POST", "/fetch_api_key", { username: "nobody@example.com", password: "wrong" });
    f.after_10_failed_logins_next_failure_status = (
      await call(url, null, "POST", "/fetch_api_key", { username: "nobody@example.com", password: "wrong" })
    ).status;
    f.after_10_failed_logins_valid_key_status = (await call(url, ann, "GET", "/users/me")).status;

    ctx.log("2,000 queues registered by one member");
    const rss0 = rssMb(proc.pid);
    const t0 = performance.now();
    for (let i = 0; i < 2000; i++) await call(url, bob, "POST", "/register", { event_types: ["message"] });
    f.register_2000_queues_s = round((performance.now() - t0) / 1000);
    f.register_2000_queues_rss_growth_mb = round(rssMb(proc.pid) - rss0);
    const dm: number[] = [];
    for (let i = 0; i < 20; i++) {
      const s0 = performance.now();
      await call(url, ann, "POST", "/messages", { type: "direct", to: [bob.id], content: `dm ${i}` });
      dm.push(performance.now() - s0);
    }
    f.dm_to_that_member_ms = round(median(dm));

    ctx.log("large bodies");
    const huge = await declaredHuge(url, ann);
    Object.assign(f, { body_120mb_status: huge.status, body_120mb_json: String(huge.json), body_120mb_answer_ms: huge.ms });
    const before = rssMb(proc.pid);
    const body = "type=direct&to=1&content=" + "x".repeat(24 * 2 ** 20);
    const eight = await Promise.all(
      Array.from({ length: 8 }, () =>
        fetch(`${url}/api/v1/messages`, {
          method: "POST",
          headers: { Authorization: basic(ann), "Content-Type": "application/x-www-form-urlencoded" },
          body,
        }).then(
          (res) => res.status,
          () => 0,
        ),
      ),
    );
    f.eight_24mb_posts_statuses = [...new Set(eight)].join(",");
    f.eight_24mb_posts_rss_growth_mb = round(rssMb(proc.pid) - before);
  } finally {
    await stop(proc);
  }
  return {
    figures: f,
    targets: [
      { label: "100,000-id principals refused", value: Number(f.principals_100k_ms), unit: "ms", op: "<", limit: 100 },
      { label: "concurrent GET /users/me meanwhile", value: Number(f.principals_100k_concurrent_users_me_ms), unit: "ms", op: "<", limit: 100 },
      { label: "100,000-id direct message refused", value: Number(f.dm_to_100k_ms), unit: "ms", op: "<", limit: 100 },
      {
        label: "CLI deactivation ends a held poll (after the CLI exits)",
        value: Number(f.cli_deactivate_poll_ended_ms_after_cli_exit),
        unit: "ms",
        op: "<",
        limit: 1000,
      },
      { label: "eight 24 MB posts: RSS growth", value: Number(f.eight_24mb_posts_rss_growth_mb), unit: "MB", op: "<", limit: 50 },
    ],
  };
}
