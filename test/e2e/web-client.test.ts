// The web client in a real headless Chromium against the compiled executable on an empty data
// directory: sign-in, two people chatting live, direct messages, edits and reactions, search,
// reconnecting after a restart, sign-out, CSRF, dark theme and phone width. Each scenario leaves a screenshot in
// test/e2e/results/. Selectors are the data-testids agreed in src/web/NOTES-from-server.md.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { api, ensureExecutable, launchChromium, newMember, openApp, screenshot, signInThroughForm, startConfab, type Confab } from "./harness";

setDefaultTimeout(60_000);
const WAIT = 15_000;

let confab: Confab;
let browser: Browser;
let ann: Awaited<ReturnType<typeof newMember>>;
let bob: Awaited<ReturnType<typeof newMember>>;
let annApp: { context: BrowserContext; page: Page };
let bobApp: { context: BrowserContext; page: Page };

beforeAll(async () => {
  ensureExecutable();
  [confab, browser] = await Promise.all([startConfab(), launchChromium()]);
  [ann, bob] = [await newMember(confab, "Ann"), await newMember(confab, "Bob")];
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await confab?.stop();
});

const messageWith = (page: Page, text: string) => page.getByTestId("message").filter({ hasText: text }).first();
const seen = (page: Page, text: string) => messageWith(page, text).waitFor({ state: "visible", timeout: WAIT });

/** Writes in the compose box (the open conversation's, or a new topic) and sends with the button. */
async function send(page: Page, content: string, topic?: string) {
  if (topic !== undefined) await page.getByTestId("compose-topic").fill(topic);
  await page.getByTestId("compose-content").fill(content);
  await page.getByTestId("compose-send").click();
}

async function signedIn(email: string, password: string) {
  const app = await openApp(browser, confab);
  await signInThroughForm(app.page, email, password);
  await app.page.getByTestId("message-list").waitFor({ timeout: WAIT });
  return app;
}

describe("the web client", () => {
  test("sign in: the sign-in page, then the owner lands in #general with the welcome message", async () => {
    const { context, page } = await openApp(browser, confab);
    await page.getByTestId("login-email").waitFor({ timeout: WAIT });
    await screenshot(page, "01-sign-in-page");
    await signInThroughForm(page, confab.owner.email, "not the password");
    await page.getByTestId("login-error").waitFor({ timeout: WAIT });
    await signInThroughForm(page, confab.owner.email, confab.owner.password);
    await page.getByTestId("channel-general").waitFor({ timeout: WAIT });
    await page.getByTestId("channel-general").click();
    await seen(page, "Invite users");
    await screenshot(page, "02-signed-in-general");
    await context.close();
  });

  test("two people: a message appears live for the other with its unread count; the reply comes back", async () => {
    [annApp, bobApp] = await Promise.all([signedIn(ann.email, ann.password), signedIn(bob.email, bob.password)]);
    // Bob is elsewhere (the sandbox) before Ann writes: the count on #general tells him. (Left on the
    // combined feed, he would see her message arrive there and it would be read at once.)
    await bobApp.page.getByTestId("channel-sandbox").click();
    await bobApp.page.locator("[data-testid=channel-sandbox][aria-current=page]").waitFor({ timeout: WAIT });
    await annApp.page.getByTestId("channel-general").click();
    await send(annApp.page, "Lunch at noon, anyone?", "lunch");
    await seen(annApp.page, "Lunch at noon");
    const unread = bobApp.page.getByTestId("channel-general").getByTestId("unread-count");
    await unread.waitFor({ timeout: WAIT });
    expect(await unread.textContent()).toBe("1");
    await screenshot(bobApp.page, "03-unread-count");
    await bobApp.page.getByTestId("channel-general").click();
    await bobApp.page.getByTestId("topic-lunch").click();
    await seen(bobApp.page, "Lunch at noon");
    await send(bobApp.page, "Count me in!");
    await seen(annApp.page, "Count me in!");
    await screenshot(annApp.page, "04-reply-seen-live");
  });

  test("direct message: Bob gets it live under direct messages", async () => {
    await annApp.page.getByTestId("compose-switch-dm").click();
    await annApp.page.getByTestId("compose-dm-recipients").fill("Bob");
    await annApp.page.getByTestId("typeahead").waitFor({ timeout: WAIT });
    await annApp.page.getByTestId("compose-dm-recipients").press("Enter");
    await send(annApp.page, "Just between us: the cake is in the fridge.");
    const dm = bobApp.page.getByTestId(`dm-${ann.userId}`);
    await dm.getByTestId("unread-count").waitFor({ timeout: WAIT });
    await dm.click();
    await seen(bobApp.page, "the cake is in the fridge");
    await screenshot(bobApp.page, "05-direct-message");
  });

  test("an edit and a reaction are seen live by the other", async () => {
    await annApp.page.getByTestId("channel-general").click();
    await annApp.page.getByTestId("topic-lunch").click();
    await bobApp.page.getByTestId("channel-general").click();
    await bobApp.page.getByTestId("topic-lunch").click();
    const mine = messageWith(annApp.page, "Lunch at noon");
    await mine.hover();
    await mine.getByTestId("action-more").click();
    await annApp.page.getByTestId("action-edit").click();
    await annApp.page.getByTestId("edit-content").fill("Lunch at 12:30, anyone?");
    await annApp.page.getByTestId("edit-save").click();
    await seen(bobApp.page, "Lunch at 12:30");
    const theirs = messageWith(bobApp.page, "Lunch at 12:30");
    await theirs.hover();
    await theirs.getByTestId("action-react").click();
    await bobApp.page.getByTestId("emoji-search").fill("thumbs_up");
    await bobApp.page.getByTestId("emoji-search").press("Enter");
    await messageWith(annApp.page, "Lunch at 12:30").getByTestId("reaction").first().waitFor({ timeout: WAIT });
    await screenshot(annApp.page, "06-edit-and-reaction");
  });

  test("search finds a message, with the server's highlight", async () => {
    await annApp.page.getByTestId("search-input").fill("fridge");
    await annApp.page.getByTestId("search-input").press("Enter");
    await seen(annApp.page, "the cake is in the fridge");
    await annApp.page.locator(".highlight").first().waitFor({ timeout: WAIT });
    await screenshot(annApp.page, "07-search");
  });

  test("after a server restart the app re-registers and shows what was sent meanwhile", async () => {
    await bobApp.page.getByTestId("channel-general").click();
    await bobApp.page.getByTestId("topic-lunch").click();
    await confab.restart(); // every event queue is gone
    await api(confab, ann, "POST", "/messages", { type: "stream", to: "general", topic: "lunch", content: "Sent while you were reconnecting" });
    await seen(bobApp.page, "Sent while you were reconnecting");
    await screenshot(bobApp.page, "08-after-restart");
  });

  test("an image attached by one is seen inline by the other", async () => {
    // A 1×1 PNG: enough for the browser to decode, so the other side's <img> has a natural width.
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==", "base64");
    for (const app of [annApp, bobApp]) {
      await app.page.getByTestId("channel-general").click();
      await app.page.getByTestId("topic-lunch").click();
    }
    await annApp.page.getByTestId("compose-file").setInputFiles({ name: "chart.png", mimeType: "image/png", buffer: png });
    const compose = annApp.page.getByTestId("compose-content");
    for (const until = Date.now() + WAIT; !(await compose.inputValue()).includes("/user_uploads/"); ) {
      if (Date.now() > until) throw new Error("the upload's link never reached the compose box");
      await annApp.page.waitForTimeout(50);
    }
    await annApp.page.getByTestId("compose-send").click();
    const img = bobApp.page.locator('[data-testid=message] img[src*="/user_uploads/"]').last();
    await img.waitFor({ state: "visible", timeout: WAIT });
    // Decoded, not just present: naturalWidth stays 0 for an image the browser could not fetch.
    for (const until = Date.now() + WAIT; !(await img.evaluate((el: any) => el.complete)); ) {
      if (Date.now() > until) throw new Error("the image never finished loading");
      await bobApp.page.waitForTimeout(50);
    }
    expect(await img.evaluate((el: any) => el.naturalWidth)).toBeGreaterThan(0);
    await screenshot(bobApp.page, "09-image-inline");
  });

  test("sign-out ends the session: the old cookie gets 401", async () => {
    const cookie = (await annApp.context.cookies()).find((c) => c.name === "confab_session")!;
    expect(cookie.httpOnly).toBe(true);
    await annApp.page.getByTestId("user-menu").click();
    await annApp.page.getByTestId("sign-out").click();
    await annApp.page.getByTestId("login-email").waitFor({ timeout: WAIT });
    await screenshot(annApp.page, "09-signed-out");
    const res = await fetch(`${confab.url}/json/users/me`, { headers: { Cookie: `confab_session=${cookie.value}` } });
    expect(res.status).toBe(401);
  });

  test("CSRF: an unsafe /json request without the token is refused, with the token it passes", async () => {
    const { page } = bobApp;
    const answer = (withToken: boolean) =>
      page.evaluate(async (withToken) => {
        // (runs in the page; the test's own types have no DOM)
        const { cookie } = (globalThis as unknown as { document: { cookie: string } }).document;
        const token = cookie.match(/(?:^|; )csrftoken=([^;]*)/)?.[1] ?? "";
        const res = await fetch("/json/users/me/presence", {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded", ...(withToken ? { "X-CSRFToken": token } : {}) },
          body: "status=active",
        });
        return { status: res.status, body: await res.json() };
      }, withToken);
    expect(await answer(false)).toMatchObject({ status: 403, body: { result: "error", code: "CSRF_FAILED" } });
    expect(await answer(true)).toMatchObject({ status: 200, body: { result: "success" } });
    await screenshot(page, "10-csrf");
  });

  test("dark theme follows the setting live; at phone width the channels open in a drawer", async () => {
    const cara = await newMember(confab, "Cara");
    const { context, page } = await signedIn(cara.email, cara.password);
    // (page code below runs in the browser; the test's own types have no DOM)
    const background = () => page.evaluate(() => (globalThis as any).getComputedStyle((globalThis as any).document.body).backgroundColor as string);
    const light = await background();
    await api(confab, cara, "PATCH", "/settings", { color_scheme: 2 }); // from another client: arrives as an event
    await page.waitForFunction(() => (globalThis as any).document.documentElement.dataset.theme === "dark", undefined, { timeout: WAIT });
    const dark = await background();
    expect(dark).not.toBe(light);
    const luminance = (rgb: string) =>
      rgb
        .match(/\d+/g)!
        .slice(0, 3)
        .reduce((a, x) => a + Number(x), 0);
    expect(luminance(dark)).toBeLessThan(luminance(light));
    await screenshot(page, "11-dark-theme");

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId("channel-general").waitFor({ state: "hidden", timeout: WAIT }); // the sidebar slides away
    await page.getByRole("button", { name: "Show channels" }).click();
    await page.getByTestId("channel-general").waitFor({ state: "visible", timeout: WAIT });
    await screenshot(page, "12-phone-drawer");
    await page.getByTestId("channel-general").click();
    await page.getByTestId("channel-general").waitFor({ state: "hidden", timeout: WAIT }); // the drawer closes on navigation
    await page.getByTestId("compose-content").waitFor({ state: "visible", timeout: WAIT });
    await screenshot(page, "13-phone-conversation");
    await context.close();
  });
});
