// Organization administration in a real headless Chromium against the compiled executable: the owner
// changes a setting and a member sees it live; a user group and a channel with a group-setting
// picker; an invitation link someone joins through; a bot and its key; deactivating a user ends their
// session; a custom emoji used in a message; a member sees only the pages a permission delegates to
// them; the organization icon; deleting a topic; a member's profile fields and status set by an
// administrator; a member holding only a group's add-members right or one bot kind sees only those
// controls; a status set in one browser shows live on the card open in another. Screenshots (light, dark, phone width) go to test/e2e/results/admin-*.png.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { api, ensureExecutable, launchChromium, newMember, openApp, screenshot, signInThroughForm, startConfab, type Confab } from "./harness";

setDefaultTimeout(60_000);
const WAIT = 15_000;

let confab: Confab;
let browser: Browser;
let ann: Awaited<ReturnType<typeof newMember>>;
let bob: Awaited<ReturnType<typeof newMember>>;
let owner: { context: BrowserContext; page: Page };
let annApp: { context: BrowserContext; page: Page };
/** A member given single rights one at a time (a group's add-members right, one bot kind). */
let cleo: Awaited<ReturnType<typeof newMember>>;
let cleoApp: { context: BrowserContext; page: Page };
const ownerAuth = () => ({ email: confab.owner.email, apiKey: confab.owner.apiKey });

beforeAll(async () => {
  ensureExecutable();
  [confab, browser] = await Promise.all([startConfab(), launchChromium()]);
  [ann, bob] = [await newMember(confab, "Ann"), await newMember(confab, "Bob")];
  [owner, annApp] = await Promise.all([signedIn(confab.owner.email, confab.owner.password), signedIn(ann.email, ann.password)]);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await confab?.stop();
});

async function signedIn(email: string, password: string) {
  const app = await openApp(browser, confab);
  await signInThroughForm(app.page, email, password);
  await app.page.getByTestId("message-list").waitFor({ timeout: WAIT });
  return app;
}

async function openContext({ width }: { width: number }) {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  const page = await context.newPage();
  await page.goto(confab.url + "/");
  return { context, page };
}

/** Opens a section of the organization settings the way a person does: menu, entry, section. */
async function openSection(page: Page, section: string) {
  if (!(await page.getByTestId("admin").isVisible())) {
    await page.getByTestId("user-menu").click();
    await page.getByTestId("open-organization").click();
    await page.getByTestId("admin").waitFor({ timeout: WAIT });
  }
  await page.getByTestId(`admin-nav-${section}`).click();
}

/** Polls until `f` gives true (what the server holds after a change the app made). */
async function until(f: () => Promise<boolean>, what: string) {
  for (const end = Date.now() + WAIT; Date.now() < end; await Bun.sleep(200)) if (await f()) return;
  throw new Error(`timed out waiting for ${what}`);
}

const toast = (page: Page, text: string) => page.getByRole("status").filter({ hasText: text }).first().waitFor({ timeout: WAIT });

describe("organization administration in the browser", () => {
  test("a member reaches only the pages their permissions give them; with none delegated, no entry at all", async () => {
    const page = annApp.page;
    // By default members may invite by email, create groups and bots and add emoji: those pages only.
    await page.getByTestId("user-menu").click();
    await page.getByTestId("open-organization").click();
    await page.getByTestId("admin").waitFor({ timeout: WAIT });
    const navIds = () => page.locator("[data-testid^='admin-nav-']").evaluateAll((els) => els.map((e) => e.getAttribute("data-testid")));
    expect(await navIds()).toEqual(["admin-nav-bots", "admin-nav-invitations", "admin-nav-groups", "admin-nav-emoji"]);
    await screenshot(page, "admin-01-member-delegated-pages");
    // Typing the address of another page does not help: the page says who may use it, and shows no control.
    await page.evaluate('location.hash = "#organization/users"');
    await page.getByTestId("admin-refused").waitFor({ timeout: WAIT });
    expect(await page.getByTestId("admin").count()).toBe(0);
    // The owner takes those permissions back: the member's menu loses the entry, live.
    const admins = (await api(confab, ownerAuth(), "GET", "/user_groups")).user_groups.find((g: any) => g.name === "role:administrators").id;
    const only = (group: unknown) => JSON.stringify({ new: group });
    await api(confab, ownerAuth(), "PATCH", "/realm", {
      can_invite_users_group: only(admins),
      can_create_groups: only(admins),
      can_add_custom_emoji_group: only(admins),
      can_create_bots_group: only(admins),
      can_create_write_only_bots_group: only(admins),
    });
    await page.evaluate('location.hash = "#feed"');
    await page.getByTestId("user-menu").click();
    await page.getByTestId("open-settings").waitFor({ timeout: WAIT });
    await until(async () => (await page.getByTestId("open-organization").count()) === 0, "the entry to go");
    await page.keyboard.press("Escape");
    await page.evaluate('location.hash = "#organization/invitations"');
    await page.getByTestId("admin-refused").waitFor({ timeout: WAIT });
    await screenshot(page, "admin-01b-member-refused");
    await page.evaluate('location.hash = "#feed"');
  });

  test("a member the owner lets make invitation links reaches the Invitations page, and only it; the owner sees the link live", async () => {
    const page = annApp.page;
    await api(confab, ownerAuth(), "PATCH", "/realm", {
      create_multiuse_invite_group: JSON.stringify({ new: { direct_members: [ann.userId], direct_subgroups: [] } }),
    });
    await page.getByTestId("user-menu").click();
    await page.getByTestId("open-organization").click();
    await page.getByTestId("admin").waitFor({ timeout: WAIT });
    expect(await page.locator("[data-testid^='admin-nav-']").count()).toBe(1);
    await page.getByTestId("admin-nav-invitations").waitFor({ timeout: WAIT });
    // A link only (emails are not hers to send), for members or guests only.
    expect(await page.getByTestId("invite-kind-email").count()).toBe(0);
    expect(await page.getByTestId("invite-role").locator("option").allTextContents()).toEqual(["Member", "Guest"]);
    await openSection(owner.page, "invitations");
    await page.getByTestId("invite-submit").click();
    expect(await page.getByTestId("admin-invite-link").inputValue()).toContain("/join/");
    await owner.page.getByTestId("admin-invites").getByText(`by Ann`).first().waitFor({ timeout: WAIT });
    await screenshot(page, "admin-01c-delegated-invitations");
    await screenshot(owner.page, "admin-01d-owner-sees-delegated-link");
    await page.evaluate('location.hash = "#feed"');
    // Back to the default, so the owner makes links again below.
    const admins = (await api(confab, ownerAuth(), "GET", "/user_groups")).user_groups.find((g: any) => g.name === "role:administrators").id;
    await api(confab, ownerAuth(), "PATCH", "/realm", { create_multiuse_invite_group: JSON.stringify({ new: admins }) });
  });

  test("the organization icon: the owner uploads one and every header shows it, live; back to the default", async () => {
    await openSection(owner.page, "profile");
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==", "base64");
    await owner.page.getByTestId("realm-icon-upload").setInputFiles({ name: "icon.png", mimeType: "image/png", buffer: png });
    await toast(owner.page, "Icon updated");
    const annIcon = annApp.page.getByTestId("realm-icon");
    await until(async () => ((await annIcon.getAttribute("src")) ?? "").includes("/user_avatars/"), "the new icon in the member's header");
    expect(await annIcon.evaluate((img: any) => img.naturalWidth)).toBe(1);
    await screenshot(owner.page, "admin-13-icon-uploaded");
    await screenshot(annApp.page, "admin-14-member-sees-icon");
    await owner.page.getByTestId("realm-icon-delete").click();
    await toast(owner.page, "Default icon restored");
    await until(async () => ((await annIcon.getAttribute("src")) ?? "").endsWith("/static/images/logo/confab-icon.png"), "the default icon back");
  });

  test("delete a topic: only those allowed see it; after confirming, the topic leaves both sidebars live", async () => {
    const { stream_id } = await api(confab, ownerAuth(), "GET", "/get_stream_id", { stream: "general" });
    for (const content of ["first", "second"]) await api(confab, ownerAuth(), "POST", "/messages", { type: "stream", to: stream_id, topic: "doomed", content });
    for (const p of [owner.page, annApp.page]) {
      await p.getByTestId("channel-general").click();
      await p.getByTestId("topic-doomed").click();
      await p.getByTestId("message-content").filter({ hasText: "second" }).waitFor({ timeout: WAIT });
    }
    expect(await annApp.page.getByTestId("delete-topic").count()).toBe(0);
    await owner.page.getByTestId("delete-topic").click();
    await owner.page.getByRole("dialog", { name: "Delete topic" }).waitFor({ timeout: WAIT });
    await screenshot(owner.page, "admin-15-delete-topic-confirm");
    await owner.page.getByTestId("confirm-delete-topic").click();
    await toast(owner.page, "Topic deleted");
    await owner.page.getByTestId("topic-doomed").waitFor({ state: "detached", timeout: WAIT });
    await annApp.page.getByTestId("topic-doomed").waitFor({ state: "detached", timeout: WAIT });
    expect((await api(confab, ownerAuth(), "GET", `/users/me/${stream_id}/topics`)).topics.map((t: any) => t.name)).not.toContain("doomed");
    await screenshot(annApp.page, "admin-16-topic-gone-for-member");
  });

  test("an administrator edits a member's profile fields and status from the profile card; the member's card shows them", async () => {
    await api(confab, ownerAuth(), "POST", "/realm/profile_fields", { name: "Team", field_type: 1, hint: "Where they work" });
    const { stream_id } = await api(confab, ownerAuth(), "GET", "/get_stream_id", { stream: "general" });
    await api(confab, { email: ann.email, apiKey: ann.apiKey }, "POST", "/messages", { type: "stream", to: stream_id, topic: "hello", content: "Hi all" });
    await owner.page.getByTestId("channel-general").click();
    await owner.page.getByTestId("topic-hello").click();
    await owner.page.getByTestId("sender-name").filter({ hasText: "Ann" }).first().click();
    const card = owner.page.getByTestId("profile-card");
    await card.waitFor({ timeout: WAIT });
    await card.getByTestId("profile-edit").click();
    await card.getByTestId("profile-input-Team").fill("Platform");
    await card.getByTestId("profile-save").click();
    await card.getByTestId("profile-fields").getByText("Platform").waitFor({ timeout: WAIT });
    await card.getByTestId("profile-set-status").click();
    await card.getByTestId("profile-status-input").fill("On call this week");
    await card.getByTestId("profile-status-input").press("Enter");
    await card.getByTestId("profile-status").getByText("On call this week").waitFor({ timeout: WAIT });
    await screenshot(owner.page, "admin-17-profile-card-admin");
    await owner.page.keyboard.press("Escape");
    // Ann opens her own card from her message: the values the administrator set.
    await annApp.page.getByTestId("channel-general").click();
    await annApp.page.getByTestId("topic-hello").click();
    await annApp.page.getByTestId("sender-name").filter({ hasText: "Ann" }).first().click();
    const mine = annApp.page.getByTestId("profile-card");
    await mine.getByTestId("profile-fields").getByText("Platform").waitFor({ timeout: WAIT });
    await mine.getByTestId("profile-status").getByText("On call this week").waitFor({ timeout: WAIT });
    expect(await mine.getByTestId("profile-edit").count()).toBe(0);
    await screenshot(annApp.page, "admin-18-profile-card-member");
    await annApp.page.keyboard.press("Escape");
    const { user } = await api(confab, ownerAuth(), "GET", `/users/${ann.userId}`, { include_custom_profile_fields: true });
    expect(Object.values(user.profile_data).map((v: any) => v.value)).toEqual(["Platform"]);
  });

  test("the owner renames the organization and a member's app shows the new name live", async () => {
    await openSection(owner.page, "profile");
    const name = owner.page.getByTestId("admin-name");
    await name.fill("Homelab Crew");
    await name.press("Enter");
    await toast(owner.page, "Saved");
    await annApp.page.locator(".realm-name", { hasText: "Homelab Crew" }).waitFor({ timeout: WAIT });
    // A permission through its group-setting picker: who may create public channels.
    const picker = owner.page.getByTestId("admin-can_create_public_channel_group");
    await openSection(owner.page, "permissions");
    await picker.selectOption({ label: "Administrators" });
    const admins = (await api(confab, ownerAuth(), "GET", "/user_groups")).user_groups.find((g: any) => g.name === "role:administrators");
    const setting = async () => (await api(confab, ownerAuth(), "POST", "/register", { fetch_event_types: ["realm"] })).realm_can_create_public_channel_group;
    await until(async () => (await setting()) === admins.id, "the new permission");
    await screenshot(owner.page, "admin-02-permissions");
    await screenshot(annApp.page, "admin-03-member-sees-new-name");
  });

  test("a user group, then a channel whose posting permission is that group (picked in the form)", async () => {
    await openSection(owner.page, "groups");
    await owner.page.getByTestId("group-name").fill("Reviewers");
    await owner.page.getByTestId("group-description").fill("People who review changes");
    await owner.page.getByTestId(`group-member-${ann.email}`).check();
    await owner.page.getByTestId("group-create").click();
    await owner.page.getByTestId("admin-group-Reviewers").waitFor({ timeout: WAIT });
    // Nesting: the group includes the moderators.
    await owner.page.getByTestId("admin-group-Reviewers").getByTestId("group-edit").click();
    await owner.page.getByTestId("group-add-subgroup").selectOption({ label: "Moderators" });
    await owner.page.getByTestId("admin-group-Reviewers").getByText("includes Moderators").waitFor({ timeout: WAIT });
    await screenshot(owner.page, "admin-04-group");

    await openSection(owner.page, "channels");
    await owner.page.getByTestId("admin-new-channel-name").fill("reviews");
    await owner.page.getByTestId("new-channel-can_send_message_group").selectOption({ label: "Reviewers" });
    await owner.page.getByTestId("admin-new-channel-submit").click();
    await owner.page.getByTestId("admin-channel-reviews").waitFor({ timeout: WAIT });
    const groups = (await api(confab, ownerAuth(), "GET", "/user_groups")).user_groups;
    const reviewers = groups.find((g: any) => g.name === "Reviewers");
    expect(reviewers.members).toEqual([ann.userId]);
    expect(reviewers.direct_subgroup_ids).toEqual([groups.find((g: any) => g.name === "role:moderators").id]);
    const { stream_id } = await api(confab, ownerAuth(), "GET", "/get_stream_id", { stream: "reviews" });
    const { stream } = await api(confab, ownerAuth(), "GET", `/streams/${stream_id}`);
    expect(stream.can_send_message_group).toBe(reviewers.id);
    // Editing it: the channel's description, saved with Enter.
    await owner.page.getByTestId("admin-channel-reviews").getByTestId("channel-edit").click();
    const description = owner.page.getByTestId("admin-channel-reviews").getByTestId("channel-description");
    await description.fill("Code reviews");
    await description.press("Enter");
    await owner.page.getByTestId("admin-channel-reviews").getByText("Code reviews").first().waitFor({ timeout: WAIT });
    // Subscribing Ann from the editor: the channel appears in her sidebar, live.
    await owner.page.getByTestId("admin-channel-reviews").getByLabel("Subscribe someone").selectOption({ label: "Ann" });
    await annApp.page.getByTestId("channel-reviews").waitFor({ timeout: WAIT });
    await screenshot(owner.page, "admin-05-channel");
  });

  test("an invitation link: a new person joins through it in another browser", async () => {
    await openSection(owner.page, "invitations");
    await owner.page.getByTestId("invite-role").selectOption("300");
    await owner.page.getByTestId("invite-submit").click();
    const link = await owner.page.getByTestId("admin-invite-link").inputValue();
    expect(link).toContain("/join/");
    await owner.page.getByTestId("admin-invites").getByText("Reusable link").first().waitFor({ timeout: WAIT });
    await screenshot(owner.page, "admin-06-invite-link");

    const carol = await openContext({ width: 390 });
    await carol.page.goto(link);
    await carol.page.locator("#email").fill("carol@example.com");
    await carol.page.locator("#full_name").fill("Carol Newcomer");
    await carol.page.locator("#password").fill("carol-password-1");
    await carol.page.getByRole("button", { name: "Create account" }).click();
    await carol.page.getByTestId("message-list").waitFor({ timeout: WAIT });
    await screenshot(carol.page, "admin-07-joined-phone");
    // The owner's user list has her, live, with the role the link gave.
    await openSection(owner.page, "users");
    const row = owner.page.getByTestId("admin-user-carol@example.com");
    await row.waitFor({ timeout: WAIT });
    expect(await row.getByTestId("user-role").inputValue()).toBe("300");
    await carol.context.close();
  });

  test("a bot: created, its key copied and working, then deactivated", async () => {
    await owner.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: confab.url });
    await openSection(owner.page, "bots");
    await owner.page.getByTestId("bot-name").fill("Deploy Bot");
    await owner.page.getByTestId("bot-short-name").fill("deploy");
    await owner.page.getByTestId("bot-create").click();
    const row = owner.page.locator("[data-testid^='admin-bot-deploy-bot@']");
    await row.waitFor({ timeout: WAIT });
    await row.getByTestId("bot-copy-key").click();
    await toast(owner.page, "API key copied");
    const key = await owner.page.evaluate<string>("navigator.clipboard.readText()");
    const email = (await row.getAttribute("data-testid"))!.replace("admin-bot-", "");
    expect((await api(confab, { email, apiKey: key }, "GET", "/users/me")).email).toBe(email);
    // An outgoing webhook asks for its URL.
    await owner.page.getByTestId("bot-type").selectOption("3");
    await owner.page.getByTestId("bot-name").fill("Hook Bot");
    await owner.page.getByTestId("bot-short-name").fill("hook");
    await owner.page.getByTestId("bot-url").fill("http://127.0.0.1:9/hook");
    await owner.page.getByTestId("bot-create").click();
    await owner.page.locator("[data-testid^='admin-bot-hook-bot@']").waitFor({ timeout: WAIT });
    await screenshot(owner.page, "admin-08-bots");
    owner.page.once("dialog", (d) => d.accept());
    await row.getByTestId("bot-regenerate-key").click();
    await toast(owner.page, "New API key made");
    await expect(api(confab, { email, apiKey: key }, "GET", "/users/me")).rejects.toThrow("401");
  });

  test("deactivating a user ends their session: their app goes back to the sign-in page", async () => {
    const bobApp = await signedIn(bob.email, bob.password);
    await openSection(owner.page, "users");
    owner.page.once("dialog", (d) => d.accept());
    await owner.page.getByTestId(`admin-user-${bob.email}`).getByTestId("user-deactivate").click();
    await owner.page.getByTestId(`admin-user-${bob.email}`).getByTestId("user-reactivate").waitFor({ timeout: WAIT });
    await bobApp.page.getByTestId("login-email").waitFor({ timeout: WAIT });
    await screenshot(owner.page, "admin-09-users");
    await bobApp.context.close();
  });

  test("a custom emoji uploaded by the owner is used in a member's message", async () => {
    await openSection(owner.page, "emoji");
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==", "base64");
    await owner.page.getByTestId("emoji-name").fill("shipit");
    await owner.page.getByTestId("emoji-file").setInputFiles({ name: "shipit.png", mimeType: "image/png", buffer: png });
    await owner.page.getByTestId("emoji-submit").click();
    await owner.page.getByTestId("admin-emoji-shipit").waitFor({ timeout: WAIT });
    await screenshot(owner.page, "admin-10-emoji");
    await annApp.page.getByTestId("channel-general").click();
    await annApp.page.getByTestId("compose-topic").fill("release");
    await annApp.page.getByTestId("compose-content").fill("Ready :shipit:");
    await annApp.page.getByTestId("compose-send").click();
    await annApp.page.getByTestId("message-content").locator("img.emoji[alt=':shipit:']").first().waitFor({ timeout: WAIT });
  });

  test("a member who may only add a group's members: no rename, permission or removal controls, and adds a member", async () => {
    cleo = await newMember(confab, "Cleo");
    const dan = await newMember(confab, "Dan");
    const reviewers = (await api(confab, ownerAuth(), "GET", "/user_groups")).user_groups.find((g: any) => g.name === "Reviewers");
    await api(confab, ownerAuth(), "PATCH", `/user_groups/${reviewers.id}`, {
      can_add_members_group: JSON.stringify({ new: { direct_members: [cleo.userId], direct_subgroups: [] } }),
    });
    cleoApp = await signedIn(cleo.email, cleo.password);
    const page = cleoApp.page;
    await page.getByTestId("user-menu").click();
    await page.getByTestId("open-organization").click();
    await page.getByTestId("admin").waitFor({ timeout: WAIT });
    // The first test left the realm's delegated pages to administrators: this group's right alone opens one.
    expect(await page.locator("[data-testid^='admin-nav-']").evaluateAll((els) => els.map((e) => e.getAttribute("data-testid")))).toEqual(["admin-nav-groups"]);
    expect(await page.getByTestId("group-create").count()).toBe(0);
    await page.getByTestId("admin-group-Reviewers").getByTestId("group-edit").click();
    const editor = page.getByRole("region", { name: "Group: Reviewers" });
    await editor.getByTestId("group-add-member").waitFor({ timeout: WAIT });
    expect(await editor.locator("input[name='name']").count()).toBe(0);
    expect(await editor.getByRole("heading", { name: "Permissions" }).count()).toBe(0);
    expect(await editor.getByTestId("group-deactivate").count()).toBe(0);
    expect(await editor.getByRole("button", { name: /^Remove / }).count()).toBe(0);
    await editor.getByTestId("group-add-member").selectOption({ label: "Dan" });
    await toast(page, "Member added");
    await editor.getByRole("list", { name: "Members" }).getByText("Dan").waitFor({ timeout: WAIT });
    await screenshot(page, "admin-13-group-add-members-only");
    const after = (await api(confab, ownerAuth(), "GET", "/user_groups")).user_groups.find((g: any) => g.name === "Reviewers");
    expect(after.members).toContain(dan.userId);
    expect(after.name).toBe("Reviewers");
    // Ann is in the group and may leave it (everyone may, by default): that alone opens no settings page.
    await annApp.page.getByTestId("user-menu").click();
    await annApp.page.getByTestId("open-settings").waitFor({ timeout: WAIT });
    expect(await annApp.page.getByTestId("open-organization").count()).toBe(0);
    await annApp.page.keyboard.press("Escape");
  });

  test("a member allowed only incoming webhook bots is offered that kind alone, and creates one", async () => {
    const page = cleoApp.page;
    await api(confab, ownerAuth(), "PATCH", "/realm", {
      can_create_write_only_bots_group: JSON.stringify({ new: { direct_members: [cleo.userId], direct_subgroups: [] } }),
    });
    // The realm event reaches her open page: the Bots entry appears without a reload.
    await page.getByTestId("admin-nav-bots").click();
    await page.getByTestId("bot-type").waitFor({ timeout: WAIT });
    expect(await page.getByTestId("bot-type").locator("option").allTextContents()).toEqual(["Incoming webhook"]);
    await page.getByTestId("bot-name").fill("Alerts Bot");
    await page.getByTestId("bot-short-name").fill("alerts");
    await page.getByTestId("bot-create").click();
    const row = page.locator("[data-testid^='admin-bot-alerts-bot@']");
    await row.waitFor({ timeout: WAIT });
    // Her own bot: its key and deactivation are hers to use.
    await row.getByTestId("bot-regenerate-key").waitFor({ timeout: WAIT });
    await screenshot(page, "admin-14-bots-incoming-only");
    const bot = (await api(confab, ownerAuth(), "GET", "/users")).members.find((u: any) => u.email.startsWith("alerts-bot@"));
    expect(bot.bot_type).toBe(2);
    await page.evaluate('location.hash = "#feed"');
  });

  test("two browsers: Ann sets her status and the profile card Cleo has open follows it live", async () => {
    // Cleo opens Ann's card from Ann's message; it shows the status the administrator set earlier.
    const page = cleoApp.page;
    await page.getByTestId("channel-general").click();
    await page.getByTestId("topic-hello").click();
    await page.getByTestId("sender-name").filter({ hasText: "Ann" }).first().click();
    const card = page.getByTestId("profile-card");
    await card.getByTestId("profile-status").getByText("On call this week").waitFor({ timeout: WAIT });
    // Ann sets her own from the user menu.
    const annPage = annApp.page;
    await annPage.getByTestId("user-menu").click();
    await annPage.getByTestId("open-own-profile").click();
    const own = annPage.getByTestId("profile-card");
    await own.getByTestId("profile-set-status").click();
    // The field takes the focus: typing and Enter are enough.
    const field = own.getByTestId("profile-status-input");
    await until(async () => (await field.count()) === 1 && (await field.evaluate((el) => el === el.ownerDocument.activeElement)), "the status field's focus");
    await annPage.keyboard.type("Out for lunch");
    await annPage.keyboard.press("Enter");
    await own.getByTestId("profile-status").getByText("Out for lunch").waitFor({ timeout: WAIT });
    await card.getByTestId("profile-status").getByText("Out for lunch").waitFor({ timeout: WAIT });
    await screenshot(page, "admin-15-status-live-other-card");
    await screenshot(annPage, "admin-15b-status-own-card");
    // Cleared: the other card shows no status, still without reopening.
    await own.getByTestId("profile-set-status").click();
    await own.getByTestId("profile-status-input").fill("");
    await own.getByTestId("profile-status-input").press("Enter");
    await until(async () => (await card.getByTestId("profile-status").textContent()) === "", "the status to clear");
    await annPage.keyboard.press("Escape");
    await page.keyboard.press("Escape");
    await cleoApp.context.close();
  });

  test("dark theme and phone width: the settings pages stay readable", async () => {
    await owner.page.emulateMedia({ colorScheme: "dark" });
    await openSection(owner.page, "channels");
    await owner.page.getByTestId("admin-channel-reviews").getByTestId("channel-edit").click();
    await screenshot(owner.page, "admin-11-dark-channels");
    // The profile card from the users page, in the dark theme.
    await openSection(owner.page, "users");
    await owner.page.getByTestId(`admin-user-${ann.email}`).getByTestId("user-profile").click();
    await owner.page.getByTestId("profile-card").getByText("Platform").waitFor({ timeout: WAIT });
    await screenshot(owner.page, "admin-11b-dark-profile-card");
    await owner.page.keyboard.press("Escape");
    await owner.page.getByTestId("profile-card").waitFor({ state: "detached", timeout: WAIT });
    await owner.page.emulateMedia({ colorScheme: "light" });
    await owner.page.setViewportSize({ width: 390, height: 800 });
    await openSection(owner.page, "profile");
    await screenshot(owner.page, "admin-12-phone-profile");
  });
});
