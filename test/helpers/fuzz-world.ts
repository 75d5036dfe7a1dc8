// The organization a fuzz run works on: one user per role, a bot, and a little of everything (a channel,
// messages, a group, a draft, a scheduled message, a snippet, an upload) so generated ids and names hit
// real rows. Users come through the actions (no password hashing, and an App beside a running server
// works, as the CLI's does); the rest over HTTP as the owner.
import { createUser } from "../../src/actions/users";
import type { App } from "../../src/context";
import type { RealmRow, UserRow } from "../../src/db/schema";
import { ROLE, type Role } from "../../src/domain/roles";
import { CALLERS, type Caller, type Pools } from "./route-fuzz";

const basic = (email: string, key: string) => "Basic " + Buffer.from(`${email}:${key}`).toString("base64");

export type Auths = Record<Caller, string | null>;

const ROLES: [Exclude<Caller, "bot" | "anon">, Role][] = [
  ["owner", ROLE.owner],
  ["admin", ROLE.administrator],
  ["moderator", ROLE.moderator],
  ["member", ROLE.member],
  ["guest", ROLE.guest],
];

let made = 0;

/** A fresh user for `caller` (also after a fuzzed request deactivated or re-keyed the previous one). */
export async function makeCaller(app: App, realm: RealmRow, owner: UserRow, caller: Exclude<Caller, "anon">): Promise<{ id: number; auth: string }> {
  const n = ++made;
  const role = ROLES.find(([c]) => c === caller)?.[1] ?? ROLE.member;
  const bot = caller === "bot" ? { isBot: true, botType: 1, botOwnerId: owner.id } : {};
  const u = await createUser(app, realm, { email: `fuzz-${caller}-${n}@example.com`, fullName: `Fuzz ${caller} ${n}`, role, ...bot });
  return { id: u.id, auth: basic(u.email, u.apiKey) };
}

/** Every caller's credentials, and their user ids. */
export async function seedCallers(app: App, realm: RealmRow, owner: UserRow): Promise<{ auths: Auths; userIds: number[] }> {
  const auths: Auths = { owner: basic(owner.email, owner.apiKey), anon: null } as Auths;
  const userIds = [owner.id];
  for (const caller of ["admin", "moderator", "member", "guest", "bot"] as const) {
    const made = await makeCaller(app, realm, owner, caller);
    auths[caller] = made.auth;
    userIds.push(made.id);
  }
  await app.writer.settled();
  return { auths, userIds };
}

/**
 * A little of everything, made over HTTP by the owner (`ownerAuth`) at `url`; returns the ids and
 * names worth trying.
 */
export async function seedContent(url: string, ownerAuth: string, userIds: number[]): Promise<Pools> {
  const ids = new Set<number>(userIds);
  const words = new Set<string>(["fuzz", "general", "topic", "role:members", "role:everyone", "secret", "README.md"]);
  const call = async (method: string, path: string, params: Record<string, unknown>, body?: FormData) => {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) form.set(k, typeof v === "string" ? v : JSON.stringify(v));
    const res = await fetch(`${url}/api/v1${path}`, {
      method,
      headers: { Authorization: ownerAuth, ...(body ? {} : { "Content-Type": "application/x-www-form-urlencoded" }) },
      body: body ?? form.toString(),
    });
    const json = (await res.json()) as Record<string, any>;
    if (json.result !== "success") throw new Error(`fuzz world: ${method} ${path} failed: ${JSON.stringify(json)}`);
    return json;
  };
  words.add((await call("GET", "/users/me", {})).email);
  const channel = await call("POST", "/channels/create", { name: "fuzz", subscribers: userIds });
  ids.add(channel.id);
  for (let i = 0; i < 5; i++)
    ids.add((await call("POST", "/messages", { type: "stream", to: channel.id, topic: "topic", content: `fuzz ${i} **bold** @**all**` })).id);
  ids.add((await call("POST", "/messages", { type: "private", to: userIds.slice(0, 3), content: "a direct message" })).id);
  ids.add((await call("POST", "/user_groups/create", { name: "fuzzers", description: "fuzz", members: userIds.slice(0, 3) })).group_id);
  for (const id of (await call("POST", "/drafts", { drafts: [{ type: "stream", to: [channel.id], topic: "topic", content: "draft" }] })).ids) ids.add(id);
  ids.add(
    (
      await call("POST", "/scheduled_messages", {
        type: "stream",
        to: channel.id,
        topic: "topic",
        content: "later",
        scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 86_400,
      })
    ).scheduled_message_id,
  );
  ids.add((await call("POST", "/saved_snippets", { title: "snip", content: "text" })).saved_snippet_id);
  const upload = new FormData();
  upload.append("file", new File(["hello"], "hello.txt", { type: "text/plain" }));
  const uploaded = await call("POST", "/user_uploads", {}, upload);
  words.add(uploaded.url ?? uploaded.uri);
  // Small numbers name the first rows of every table (realm-emoji, linkifiers, fields, plugins …).
  for (let i = 1; i <= 12; i++) ids.add(i);
  return { ids: [...ids], words: [...words] };
}

/** A fuzzed request may deactivate, demote or re-key its own caller: each such caller is replaced. */
export async function refreshCallers(url: string, app: App, realm: RealmRow, owner: UserRow, auths: Auths) {
  for (const caller of CALLERS) {
    if (caller === "anon") continue;
    const res = await fetch(`${url}/api/v1/users/me`, { headers: { Authorization: auths[caller]! } });
    const me = (await res.json()) as { role?: number };
    if (res.status === 401 || (caller === "owner" && me.role !== ROLE.owner)) auths[caller] = (await makeCaller(app, realm, owner, caller)).auth;
  }
}
