// The contract's access table ("Authentication", rule 4) for the people-and-organization endpoints:
// every role tried on every endpoint, allowed or refused as the table says, with Zulip's exact error.
// Then nested groups, cycles, deactivated members, and each exact error the contract lists for them.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectError, ok, type Body, type Client } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

type RoleName = "owner" | "administrator" | "moderator" | "member" | "guest" | "bot";
const ROLES: RoleName[] = ["owner", "administrator", "moderator", "member", "guest", "bot"];

let s: TestServer;
const as: Record<RoleName, Client> = {} as never;
let sys: Record<string, number>;
let channelId: number;
let ownersBot: number;

beforeAll(async () => {
  s = await startServer();
  as.owner = s.owner;
  as.administrator = await s.newUser({ role: 200, name: "Ada Administrator" });
  as.moderator = await s.newUser({ role: 300, name: "Mo Moderator" });
  as.member = await s.newUser({ role: 400, name: "Mem Member" });
  as.guest = await s.newUser({ role: 600, name: "Gus Guest" });
  const bot = await ok(as.member.post("/bots", { full_name: "Matrix bot", short_name: "matrix" }));
  const email = (await ok(as.member.get(`/users/${bot.user_id}`))).user.email;
  as.bot = s.client(email, bot.api_key, bot.user_id);
  const { user_groups } = await ok(s.owner.get("/user_groups"));
  sys = Object.fromEntries(user_groups.filter((g: any) => g.is_system_group).map((g: any) => [g.name, g.id]));
  ownersBot = (await ok(s.owner.post("/bots", { full_name: "Owner's bot", short_name: "ownersbot" }))).user_id;
  channelId = (await ok(s.owner.post("/channels/create", { name: "matrix-room", subscribers: [s.owner.userId] }))).id;
});
afterAll(() => s.stop());

/** One row of the table: how to call it as a role, and which roles may. */
interface Row {
  endpoint: string;
  allowed: RoleName[];
  call(c: Client, role: RoleName): Promise<Body>;
  /** The refusal's status, code and msg for a role (defaults to what most rows answer). */
  refusal?(role: RoleName): [number, string, string];
  setup?(): Promise<void>;
}

const notForGuests: Row["refusal"] = (role) =>
  role === "guest" ? [400, "BAD_REQUEST", "Not allowed for guest users"] : [400, "BAD_REQUEST", "Insufficient permission"];

const rows: Row[] = [
  {
    endpoint: "PATCH /realm/user_settings_defaults",
    allowed: ["owner", "administrator"],
    call: (c) => c.patch("/realm/user_settings_defaults", { left_side_userlist: true }),
    refusal: () => [400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator"],
  },
  {
    endpoint: "PATCH /realm/domains/{domain}",
    allowed: ["owner"],
    setup: async () => void (await ok(s.owner.post("/realm/domains", { domain: "matrix.example", allow_subdomains: false }))),
    call: (c) => c.patch("/realm/domains/matrix.example", { allow_subdomains: true }),
    refusal: () => [400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner"],
  },
  {
    endpoint: "POST /bots/{bot_id}/api_key/regenerate (the owner's bot)",
    allowed: ["owner", "administrator"],
    call: (c) => c.post(`/bots/${ownersBot}/api_key/regenerate`),
  },
  {
    endpoint: "DELETE /users/me/avatar (changes allowed)",
    allowed: ROLES,
    call: (c) => c.delete("/users/me/avatar"),
  },
  {
    endpoint: "DELETE /users/me/avatar (changes restricted)",
    allowed: ["owner", "administrator"],
    setup: async () => void (await ok(s.owner.patch("/realm", { avatar_changes_disabled: true }))),
    call: (c) => c.delete("/users/me/avatar"),
    refusal: () => [400, "BAD_REQUEST", "Avatar changes are disabled in this organization."],
  },
  {
    endpoint: "POST /invites/multiuse (default permission: administrators)",
    allowed: ["owner", "administrator"],
    setup: async () => void (await ok(s.owner.patch("/realm", { avatar_changes_disabled: false }))),
    call: (c) => c.post("/invites/multiuse", {}),
    refusal: (role) =>
      role === "guest"
        ? [400, "BAD_REQUEST", "Not allowed for guest users"]
        : role === "bot"
          ? [400, "BAD_REQUEST", "This endpoint does not accept bot requests."]
          : [400, "BAD_REQUEST", "Insufficient permission"],
  },
  {
    endpoint: "POST /invites/multiuse (members given permission)",
    allowed: ["owner", "administrator", "moderator", "member"],
    setup: async () => void (await ok(s.owner.patch("/realm", { create_multiuse_invite_group: { new: sys["role:members"] } }))),
    call: (c) => c.post("/invites/multiuse", {}),
    refusal: (role) =>
      role === "guest" ? [400, "BAD_REQUEST", "Not allowed for guest users"] : [400, "BAD_REQUEST", "This endpoint does not accept bot requests."],
  },
  {
    endpoint: "POST /invites/multiuse with welcome_message_custom_text (members given permission)",
    allowed: ["owner", "administrator"],
    call: (c) => c.post("/invites/multiuse", { welcome_message_custom_text: "Welcome!" }),
    refusal: (role) =>
      role === "guest"
        ? [400, "BAD_REQUEST", "Not allowed for guest users"]
        : role === "bot"
          ? [400, "BAD_REQUEST", "This endpoint does not accept bot requests."]
          : [400, "BAD_REQUEST", "Must be an organization administrator"],
  },
  {
    endpoint: "POST /user_groups/create",
    allowed: ["owner", "administrator", "moderator", "member", "bot"],
    call: (c, role) => c.post("/user_groups/create", { name: `made by ${role}`, description: "", members: [] }),
    refusal: notForGuests,
  },
  {
    endpoint: "POST /user_groups/{id}/subgroups (on a group the caller manages)",
    allowed: ["owner", "administrator", "moderator", "member", "bot"],
    call: async (c, role) => {
      if (role === "guest") return c.post(`/user_groups/${sys["role:members"]}/subgroups`, { add: [sys["role:nobody"]] });
      const { user_groups } = await ok(c.get("/user_groups"));
      const mine = user_groups.find((g: any) => g.name === `made by ${role}`).id;
      const { group_id: sub } = await ok(c.post("/user_groups/create", { name: `sub of ${role}`, description: "", members: [] }));
      return c.post(`/user_groups/${mine}/subgroups`, { add: [sub] });
    },
    refusal: notForGuests,
  },
  {
    endpoint: "GET /user_groups/{id}/members/{user_id}",
    allowed: ["owner", "administrator", "moderator", "member", "bot"],
    call: (c) => c.get(`/user_groups/${sys["role:members"]}/members/${as.member.userId}`),
    refusal: notForGuests,
  },
];

describe("the contract's access table, role by role", () => {
  for (const row of rows)
    describe(row.endpoint, () => {
      if (row.setup) test("setup", row.setup);
      for (const role of ROLES) {
        const allowed = row.allowed.includes(role);
        test(`${role}: ${allowed ? "allowed" : "refused"}`, async () => {
          if (allowed) await ok(row.call(as[role], role));
          else {
            const [status, code, msg] = row.refusal?.(role) ?? [400, "BAD_REQUEST", "Insufficient permission"];
            await expectError(row.call(as[role], role), status, code, msg);
          }
        });
      }
    });

  test("POST /bots/{bot_id}/api_key/regenerate: the bot's owner may, whatever their role", async () => {
    const { api_key } = await ok(as.member.post(`/bots/${as.bot.userId}/api_key/regenerate`));
    as.bot = s.client(as.bot.email!, api_key, as.bot.userId!);
    await ok(as.bot.get("/users/me"));
  });
});

describe("nesting, cycles and deactivated members", () => {
  test("membership through three levels of subgroups; direct_member_only sees only the top", async () => {
    const member = as.member;
    const deep = await s.newUser({ name: "Deep" });
    const { group_id: l3 } = await ok(member.post("/user_groups/create", { name: "level 3", description: "", members: [deep.userId] }));
    const { group_id: l2 } = await ok(member.post("/user_groups/create", { name: "level 2", description: "", members: [], subgroups: [l3] }));
    const { group_id: l1 } = await ok(member.post("/user_groups/create", { name: "level 1", description: "", members: [], subgroups: [l2] }));
    const check = async (g: number, direct: boolean) =>
      (await ok(as.bot.get(`/user_groups/${g}/members/${deep.userId}`, { direct_member_only: direct }))).is_user_group_member;
    expect([await check(l1, false), await check(l2, false), await check(l3, false)]).toEqual([true, true, true]);
    expect([await check(l1, true), await check(l2, true), await check(l3, true)]).toEqual([false, false, true]);
    // A cycle is refused whichever level closes it.
    await expectError(
      member.post(`/user_groups/${l3}/subgroups`, { add: [l1] }),
      400,
      "BAD_REQUEST",
      `User group ${l3} is already a subgroup of one of the passed subgroups.`,
    );
    // A deactivated user is a member of nothing, directly or through nesting, until reactivated.
    await ok(s.owner.delete(`/users/${deep.userId}`));
    expect([await check(l1, false), await check(l3, true)]).toEqual([false, false]);
    expect((await ok(member.get(`/user_groups/${l1}/members`))).members).toEqual([]);
    await ok(s.owner.post(`/users/${deep.userId}/reactivate`));
    expect(await check(l1, false)).toBe(true);
  });

  test("a permission held through a nested group, and lost with deactivation", async () => {
    const helper = await s.newUser({ name: "Helper" });
    const { group_id: inner } = await ok(as.member.post("/user_groups/create", { name: "inviters inner", description: "", members: [helper.userId] }));
    const { group_id: outer } = await ok(as.member.post("/user_groups/create", { name: "inviters outer", description: "", members: [], subgroups: [inner] }));
    await ok(s.owner.patch("/realm", { create_multiuse_invite_group: { new: outer } }));
    await ok(helper.post("/invites/multiuse", {}));
    await expectError(as.moderator.post("/invites/multiuse", {}), 400, "BAD_REQUEST", "Insufficient permission");
    await ok(s.owner.patch("/realm", { create_multiuse_invite_group: { new: sys["role:administrators"] } }));
  });
});

describe("each exact error of the contract for these endpoints", () => {
  test("group creation with a nonexistent user", async () => {
    await expectError(
      as.member.post("/user_groups/create", { name: "ghosts", description: "", members: [424242] }),
      400,
      "BAD_REQUEST",
      "Invalid user ID: 424242",
    );
  });

  test("drafts: unknown id, and a channel draft without exactly one channel", async () => {
    await expectError(as.member.patch("/drafts/424242", { draft: { type: "", to: [], topic: "", content: "x" } }), 404, "BAD_REQUEST", "Draft does not exist");
    await expectError(
      as.member.post("/drafts", { drafts: [{ type: "stream", to: [], topic: "t", content: "x" }] }),
      400,
      "BAD_REQUEST",
      "Must specify exactly 1 channel ID for channel messages",
    );
  });

  test("invitations: no permission, an inaccessible channel, no permission to subscribe others", async () => {
    await expectError(as.moderator.post("/invites/multiuse", {}), 400, "BAD_REQUEST", "Insufficient permission");
    await expectError(
      as.administrator.post("/invites/multiuse", { stream_ids: [424242] }),
      400,
      "BAD_REQUEST",
      "Invalid channel ID 424242. No invites were sent.",
    );
    await ok(
      s.owner.patch("/realm", { create_multiuse_invite_group: { new: sys["role:members"] }, can_add_subscribers_group: { new: sys["role:administrators"] } }),
    );
    await expectError(
      as.member.post("/invites/multiuse", { stream_ids: [channelId] }),
      400,
      "BAD_REQUEST",
      "You do not have permission to subscribe other users to channels.",
    );
  });

  test("bots and avatars", async () => {
    await expectError(as.administrator.post("/bots/424242/api_key/regenerate"), 400, "BAD_REQUEST", "No such bot");
    await ok(s.owner.patch("/realm", { avatar_changes_disabled: true }));
    await expectError(as.member.delete("/users/me/avatar"), 400, "BAD_REQUEST", "Avatar changes are disabled in this organization.");
  });
});
