// The extension layer in a real browser against dist/confab: an administrator installs plugins from a
// server repository (settings, a secret slot, waiting → starting → running; a crashing one fails, is
// removed and restored); a member sees the plugin's widget in the nav, live, watches an alert and opens
// a row's own document; a secret added on the secrets page reaches an agent run started by a mention,
// and a run is cancelled from the topic; two browsers edit a workspace README together; a guest sees
// no plugins. Screenshots in test/e2e/results.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { FIXTURES } from "../fixtures/plugins/helpers";
import { run } from "../cli/run";
import { api, EXECUTABLE, ensureExecutable, launchChromium, newMember, openApp, screenshot, signInThroughForm, startConfab, type Confab } from "./harness";

setDefaultTimeout(150_000);
const WAIT = 25_000; // generous: the machine running these may be busy

let confab: Confab;
let browser: Browser;
let owner: Confab["owner"];
let ann: Awaited<ReturnType<typeof newMember>>;
let bob: Awaited<ReturnType<typeof newMember>>;
let admin: { context: BrowserContext; page: Page };
let annApp: { context: BrowserContext; page: Page };
let bobApp: { context: BrowserContext; page: Page };
let generalId: number;

const cli = async (...args: string[]) => {
  const r = await run([...args, "--data-dir", confab.dataDir], { program: [EXECUTABLE] });
  if (r.code !== 0) throw new Error(`confab ${args.join(" ")}: ${r.stderr}`);
};

beforeAll(async () => {
  ensureExecutable();
  [confab, browser] = await Promise.all([
    startConfab({
      CONFAB_AGENT_COMMAND: JSON.stringify([process.execPath, join(FIXTURES, "..", "agents", "test-agent.ts")]),
      CONFAB_PLUGINS_RESTART_DELAY_MS: "150",
      CONFAB_PLUGINS_MAX_RESTART_DELAY_MS: "600",
      CONFAB_PLUGINS_POLL_MS: "200",
      CONFAB_PLUGINS_SHUTDOWN_GRACE_MS: "300",
      CONFAB_AGENT_RUN_IDLE_SECONDS: "1",
    }),
    launchChromium(),
  ]);
  owner = confab.owner;
  [ann, bob] = [await newMember(confab, "Ann"), await newMember(confab, "Bob")];
  // A server repository holding the test plugins, and one with a README for a workspace.
  const src = join(confab.dataDir, "..", "plugins-src");
  for (const name of ["team-board", "crashing"]) cpSync(join(FIXTURES, name), join(src, name), { recursive: true });
  const notes = join(confab.dataDir, "..", "notes-src");
  mkdirSync(notes, { recursive: true });
  writeFileSync(join(notes, "README.md"), "# Plans\n");
  await Promise.all([
    cli("repo", "create", "plugins").then(() => cli("repo", "import", "plugins", src)),
    cli("repo", "create", "notes").then(() => cli("repo", "import", "notes", notes)),
  ]);
  const streams = await api(confab, owner, "GET", "/streams");
  generalId = streams.streams.find((s: any) => s.name === "general").stream_id;
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await confab?.stop();
});

async function signedIn(email: string, password: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(confab.url + "/");
  await signInThroughForm(page, email, password);
  await page.getByTestId("message-list").waitFor({ timeout: WAIT });
  return { context, page };
}

const openExt = async (page: Page) => {
  await page.getByTestId("user-menu").click();
  await page.getByTestId("open-ext").click();
  await page.getByTestId("ext-plugins").waitFor({ timeout: WAIT });
};
const pluginCard = (page: Page, id: string) => page.getByTestId(`plugin-${id}`);
const stateOf = (page: Page, id: string) => pluginCard(page, id).getByTestId("plugin-state").getAttribute("data-state");

/** Waits until the card's state is `want`, recording every state seen on the way. */
async function watchState(page: Page, id: string, want: string, seen: string[]) {
  const end = Date.now() + 30_000;
  for (;;) {
    const s = await stateOf(page, id);
    if (s && seen.at(-1) !== s) seen.push(s);
    if (s === want) return seen;
    if (Date.now() > end) throw new Error(`${id} never ${want}; saw ${seen.join(" → ")}`);
    await Bun.sleep(50);
  }
}

async function installFromRepository(page: Page, path: string) {
  await page.getByTestId("plugin-install-open").click();
  await page.getByTestId("install-repo").selectOption({ label: "plugins" });
  await page.getByTestId("install-path").locator("option", { hasText: path }).waitFor({ state: "attached", timeout: WAIT });
  await page.getByTestId("install-path").selectOption(path);
  await page.getByTestId("install-submit").click();
}

/** Opens a hash route in the page (the app follows hashchange; no reload). */
const go = (page: Page, hash: string) => page.goto(`${confab.url}/${hash}`);
const topicHash = (topic: string) => `#narrow/channel/${generalId}-general/topic/${encodeURIComponent(topic)}`;
async function openTopic(page: Page, topic: string) {
  await go(page, topicHash(topic));
  await page.getByTestId("compose-content").waitFor({ timeout: WAIT });
}

describe("the extension layer in the browser", () => {
  test("an administrator installs a plugin from a server repository, sets a setting and a secret: waiting → starting → running", async () => {
    admin = await signedIn(owner.email, owner.password);
    await openExt(admin.page);
    await installFromRepository(admin.page, "team-board");
    const card = pluginCard(admin.page, "team-board");
    await card.waitFor({ timeout: WAIT });
    expect(await stateOf(admin.page, "team-board")).toBe("waiting");
    expect(await card.getByTestId("plugin-detail").textContent()).toContain("Missing setting 'greeting'");
    await screenshot(admin.page, "ext-01-plugin-waiting");
    // The card opened with its settings form, drawn from the manifest.
    await card.getByTestId("setting-field-greeting").fill("Hello team");
    await card.getByTestId("settings-save").click();
    await card.getByTestId("slot-TOKEN").getByTestId("slot-value").fill("board-token-0123456789");
    const seen: string[] = ["waiting"];
    await card.getByTestId("slot-TOKEN").getByTestId("slot-save").click();
    await watchState(admin.page, "team-board", "running", seen);
    expect(seen).toEqual(["waiting", "starting", "running"]);
    // The value never comes back: only its last four characters.
    expect(await card.getByTestId("slot-TOKEN").getByTestId("slot-status").textContent()).toContain("…6789");
    expect(await admin.page.content()).not.toContain("board-token-0123456789");
    await screenshot(admin.page, "ext-02-plugin-running");
  });

  test("a plugin that exits at once is seen failing, then failed with its last lines; removed, then restored", async () => {
    await installFromRepository(admin.page, "crashing");
    const seen: string[] = [];
    await watchState(admin.page, "crasher", "failed", seen);
    expect(seen).toContain("starting");
    const failure = pluginCard(admin.page, "crasher").getByTestId("plugin-failure");
    expect(await failure.textContent()).toContain("Failed five times in a row");
    expect(await failure.textContent()).toContain("giving up with code 3");
    await screenshot(admin.page, "ext-03-plugin-failed");
    admin.page.once("dialog", (d) => d.accept());
    await pluginCard(admin.page, "crasher").getByTestId("plugin-remove").click();
    await watchState(admin.page, "crasher", "removed", []);
    expect(await pluginCard(admin.page, "crasher").textContent()).toContain("can be restored until");
    await screenshot(admin.page, "ext-04-plugin-removed");
    await pluginCard(admin.page, "crasher").getByTestId("plugin-restore").click();
    // Restored, the host starts it again (and it goes on failing, as it does).
    const end = Date.now() + WAIT;
    while ((await stateOf(admin.page, "crasher")) === "removed" && Date.now() < end) await Bun.sleep(50);
    expect(["starting", "failed"]).toContain((await stateOf(admin.page, "crasher"))!);
    expect(await pluginCard(admin.page, "crasher").getByTestId("plugin-restore").count()).toBe(0);
  });

  test("a member sees the plugin's widget in the nav, opens it, sees its blocks; a new push redraws it; hiding it follows in the other tab", async () => {
    bobApp = await signedIn(bob.email, bob.password);
    const nav = bobApp.page.getByTestId("widget-nav-board");
    await nav.waitFor({ timeout: WAIT });
    expect(await nav.getByTestId("widget-new").count()).toBe(1);
    expect(await nav.getByTestId("widget-figure").textContent()).toBe("2");
    // Members never see the administrators' controls.
    await openExt(bobApp.page);
    expect(await bobApp.page.getByTestId("plugin-install-open").count()).toBe(0);
    expect(await pluginCard(bobApp.page, "team-board").getByTestId("plugin-state").textContent()).toBe("Running");
    await nav.click();
    const page = bobApp.page.getByTestId("widget-page");
    await page.getByTestId("widget-block").first().waitFor({ timeout: WAIT });
    expect(await page.getByTestId("widget-block").evaluateAll((els) => els.map((e) => e.getAttribute("data-block-type")))).toEqual(["text", "list", "stats"]);
    expect(await page.textContent()).toContain("Hello team");
    expect(await page.textContent()).toContain("Write the docs");
    // Opened: no longer new (on every client of Bob's).
    await nav.getByTestId("widget-new").waitFor({ state: "detached", timeout: WAIT });
    await screenshot(bobApp.page, "ext-05-widget-open");
    // A new setting restarts the plugin, which pushes its document again: the open widget redraws.
    const { plugins } = await api(confab, owner, "GET", "/ext/plugins");
    const board = plugins.find((p: any) => p.plugin === "team-board");
    await api(confab, owner, "PATCH", `/ext/plugins/${board.id}`, { settings: { greeting: "Standup at ten" } });
    await page.getByText("Standup at ten").waitFor({ timeout: 20_000 });
    // A second tab of Bob's follows his preference: hidden in one, gone from the other's nav.
    const tab2 = await bobApp.context.newPage();
    await tab2.goto(confab.url + "/");
    await tab2.getByTestId("widget-nav-board").waitFor({ timeout: WAIT });
    await bobApp.page.locator("details.widget-prefs summary").click();
    await bobApp.page.getByTestId("widget-shown").uncheck();
    await tab2.getByTestId("widget-nav-board").waitFor({ state: "detached", timeout: WAIT });
    // …and it is offered in the + menu of the Widgets section.
    await tab2.getByTestId("widget-add").click();
    await tab2.getByTestId("widget-offer-board").waitFor({ timeout: WAIT });
    await screenshot(tab2, "ext-06-widget-hidden-other-tab");
    await tab2.getByTestId("widget-offer-board").click();
    await bobApp.page.getByTestId("widget-nav-board").waitFor({ timeout: WAIT });
    await tab2.close();
  });

  test("a member watches an alert within the manifest's bounds (the mark follows in the other tab) and opens a card's own document from its row", async () => {
    const nav = bobApp.page.getByTestId("widget-nav-board");
    await nav.click();
    const page = bobApp.page.getByTestId("widget-page");
    await page.getByTestId("widget-block").first().waitFor({ timeout: WAIT });
    await bobApp.page.locator("details.widget-prefs").evaluate((d: any) => (d.open = true));
    const tab2 = await bobApp.context.newPage();
    await tab2.goto(confab.url + "/");
    await tab2.getByTestId("widget-nav-board").waitFor({ timeout: WAIT });
    // Outside the declared bounds (1 to 50): the form says so and sends nothing.
    const threshold = bobApp.page.getByTestId("widget-alert-open");
    await threshold.fill("90");
    await bobApp.page.getByTestId("widget-alert-save-open").click();
    expect(await threshold.evaluate((i: any) => i.validity.rangeOverflow)).toBe(true);
    const { plugins } = await api(confab, bob, "GET", "/ext/plugins");
    const boardId = plugins.find((p: any) => p.plugin === "team-board").id;
    expect((await api(confab, bob, "GET", `/ext/widgets/${boardId}/board`)).preference.alerts).toEqual({});
    expect(await nav.getByTestId("widget-alert").count()).toBe(0);
    // Two open cards reach a threshold of 2: the nav marks it here and in the other tab, the page says why.
    await threshold.fill("2");
    await bobApp.page.getByTestId("widget-alert-save-open").click();
    await nav.getByTestId("widget-alert").waitFor({ timeout: WAIT });
    await tab2.getByTestId("widget-nav-board").getByTestId("widget-alert").waitFor({ timeout: WAIT });
    expect(await page.getByTestId("widget-alerts").textContent()).toContain("Open cards: 2");
    await screenshot(bobApp.page, "ext-06b-widget-alert");
    await screenshot(tab2, "ext-06c-widget-alert-other-tab");
    // A row with a key opens the document the plugin pushed for that item.
    await page.getByRole("link", { name: "Write the docs" }).click();
    await bobApp.page.getByTestId("widget-item-title").waitFor({ timeout: WAIT });
    await bobApp.page.getByText("Docs: the install guide and the API pages").waitFor({ timeout: WAIT });
    expect(await bobApp.page.getByTestId("widget-doc").count()).toBe(1);
    await screenshot(bobApp.page, "ext-06d-widget-item");
    // No longer watched: the mark goes, in both tabs. (The widget's own page first: the item's view,
    // still shown a moment after the click, would take the typing and be replaced.)
    await nav.click();
    await bobApp.page.getByTestId("widget-item-title").waitFor({ state: "detached", timeout: WAIT });
    // The page's own alert note shows once the widget's page has loaded (before, the form may still be
    // replaced by the loaded one, which starts from the saved threshold).
    await page.getByTestId("widget-alerts").waitFor({ timeout: WAIT });
    await bobApp.page.locator("details.widget-prefs").evaluate((d: any) => (d.open = true));
    await threshold.fill("");
    expect(await threshold.inputValue()).toBe("");
    await bobApp.page.getByTestId("widget-alert-save-open").click();
    await nav.getByTestId("widget-alert").waitFor({ state: "detached", timeout: WAIT });
    await tab2.getByTestId("widget-nav-board").getByTestId("widget-alert").waitFor({ state: "detached", timeout: WAIT });
    await tab2.close();
  });

  test("a secret added on the secrets page reaches an agent run started by a mention; the answer is the agent's; a run is cancelled from the topic", async () => {
    annApp = await signedIn(ann.email, ann.password);
    await openExt(annApp.page);
    await annApp.page.getByTestId("ext-tab-secrets").click();
    await annApp.page.getByTestId("secret-name").fill("DEPLOY_KEY");
    await annApp.page.getByTestId("secret-value").fill("s3cr3t-value-for-deploys");
    await annApp.page.getByTestId("secret-note").fill("Deploys from the agent");
    await annApp.page.getByTestId("secret-value").press("Enter");
    const row = annApp.page.getByTestId("secret-DEPLOY_KEY");
    await row.waitFor({ timeout: WAIT });
    expect(await row.textContent()).toContain("…loys");
    expect(await row.getByTestId("secret-used").textContent()).toBe("never used");
    await screenshot(annApp.page, "ext-07-secrets");

    await openTopic(annApp.page, "deploy");
    // The agent autocompletes like anyone.
    await annApp.page.getByTestId("compose-content").fill("@Agen");
    await annApp.page.getByTestId("typeahead").getByText("Agent").waitFor({ timeout: WAIT });
    await annApp.page.getByTestId("compose-content").fill("@**Agent** echo DEPLOY_KEY");
    await annApp.page.getByTestId("compose-send").click();
    const answer = annApp.page.getByTestId("message").filter({ hasText: "DEPLOY_KEY is" });
    await answer.waitFor({ timeout: 30_000 });
    // The value was in the run's environment (the agent's output masks it).
    expect(await answer.getByTestId("message-content").textContent()).toContain("DEPLOY_KEY is ***");
    expect(await answer.getByTestId("agent-badge").count()).toBe(1);
    expect(await annApp.page.getByTestId("topic-run").first().textContent()).toContain("Agent run");
    await screenshot(annApp.page, "ext-08-agent-answer");

    // A run that waits forever, cancelled from the topic by its owner (the first run has ended by then).
    await annApp.page.locator('[data-testid="topic-run"] [data-state="done"]').first().waitFor({ timeout: WAIT });
    const pids = join(confab.dataDir, "..", "agent-pids.json");
    await annApp.page.getByTestId("compose-content").fill(`@**Agent** sleep ${pids}`);
    await annApp.page.getByTestId("compose-send").click();
    const cancel = annApp.page.getByTestId("topic-run-cancel");
    await cancel.first().waitFor({ timeout: 30_000 });
    await screenshot(annApp.page, "ext-09-run-running");
    await cancel.first().click();
    await annApp.page.locator('[data-testid="topic-run"] [data-state="cancelled"]').first().waitFor({ timeout: WAIT });
    await annApp.page.getByTestId("message").filter({ hasText: "was cancelled by" }).waitFor({ timeout: WAIT });
    await screenshot(annApp.page, "ext-10-run-cancelled");

    // The secrets page now shows it used; the runs list has both runs.
    await go(annApp.page, "#ext/secrets");
    expect(await annApp.page.getByTestId("secret-DEPLOY_KEY").getByTestId("secret-used").textContent()).toContain("last used");
    await annApp.page.getByTestId("ext-tab-runs").click();
    await annApp.page.getByTestId("run-list").waitFor({ timeout: WAIT });
    expect(await annApp.page.getByTestId("run-list").getByTestId("run-state").allTextContents()).toContain("cancelled");
    await screenshot(annApp.page, "ext-11-runs");
  });

  test("two browsers edit a workspace README at once: they converge, the saved file is what both show, the other's cursor is visible", async () => {
    await api(confab, owner, "POST", "/messages", { type: "stream", to: generalId, topic: "plans", content: "Let's write the plan." });
    await openTopic(annApp.page, "plans");
    await annApp.page.getByTestId("workspace-create-open").click();
    await annApp.page.getByTestId("workspace-repo").selectOption({ label: "notes" });
    await annApp.page.getByTestId("workspace-create").click();
    await openTopic(bobApp.page, "plans");
    const uuid = await annApp.page.getByTestId("workspace").getAttribute("data-workspace-uuid", { timeout: WAIT });
    await bobApp.page.getByTestId("workspace").waitFor({ timeout: WAIT });
    const editors = [annApp.page, bobApp.page];
    for (const p of editors) {
      await p.getByTestId("readme-open").click();
      await p.locator(".cm-content").waitFor({ timeout: WAIT });
    }
    // The text each editor shows: its lines, without the other's cursor and name drawn among them.
    const shown = (p: Page) =>
      p.evaluate(`[...document.querySelectorAll(".cm-content .cm-line")].map((line) => {
        const copy = line.cloneNode(true);
        copy.querySelectorAll(".cm-ySelectionCaret, .cm-ySelectionInfo, .cm-widgetBuffer").forEach((x) => x.remove());
        return copy.textContent;
      }).join("\\n")`) as Promise<string>;
    await Promise.all(
      [
        [annApp.page, "Ann: ship on Friday"],
        [bobApp.page, "Bob: docs first"],
      ].map(async ([p, line], i) => {
        // One writes at the end, the other at the top, at the same time.
        const page = p as Page;
        await page.locator(".cm-content").click();
        await page.keyboard.press(i === 0 ? "Control+End" : "Control+Home");
        await page.keyboard.type(i === 0 ? `\n${line}` : `${line}\n`, { delay: 20 });
      }),
    );
    const end = Date.now() + 15_000;
    let texts: string[] = [];
    for (;;) {
      texts = await Promise.all(editors.map(shown));
      if (texts[0] === texts[1] && texts[0]!.includes("Ann: ship on Friday") && texts[0]!.includes("Bob: docs first")) break;
      if (Date.now() > end) throw new Error(`no convergence: ${JSON.stringify(texts)}`);
      await Bun.sleep(100);
    }
    expect(texts[0]!).toContain("# Plans");
    // The other's cursor, with their name.
    await annApp.page.locator(".cm-ySelectionInfo", { hasText: "Bob" }).waitFor({ state: "attached", timeout: WAIT });
    await bobApp.page.locator(".cm-ySelectionInfo", { hasText: "Ann" }).waitFor({ state: "attached", timeout: WAIT });
    await screenshot(annApp.page, "ext-12-readme-together");
    // Saved 300 ms after the last change.
    const file = join(confab.dataDir, "workspaces", uuid!, "README.md");
    const fileEnd = Date.now() + 10_000;
    while (readFileSync(file, "utf8") !== texts[0] && Date.now() < fileEnd) await Bun.sleep(100);
    expect(readFileSync(file, "utf8")).toBe(texts[0]!);
    for (const p of editors) await p.getByTestId("readme-open").click();
  });

  test("a guest never sees plugins; at phone width in the dark theme the plugins page still reads", async () => {
    const guest = await newMember(confab, "Gus");
    await api(confab, owner, "PATCH", `/users/${guest.userId}`, { role: 600 });
    const g = await signedIn(guest.email, guest.password);
    await g.page.getByTestId("user-menu").click();
    expect(await g.page.getByTestId("open-ext").count()).toBe(0);
    expect(await g.page.getByTestId("widget-nav").count()).toBe(0);
    await go(g.page, "#ext/plugins");
    await g.page.getByText("are for the organization's members").waitFor({ timeout: WAIT });
    await g.context.close();

    await admin.page.setViewportSize({ width: 390, height: 844 });
    await admin.page.emulateMedia({ colorScheme: "dark" });
    await go(admin.page, "#ext/plugins");
    await pluginCard(admin.page, "team-board").waitFor({ timeout: WAIT });
    await screenshot(admin.page, "ext-13-plugins-phone-dark");
  });
});
