// The browser tests' setup: the compiled executable (built once if missing or older than the sources),
// served on an empty data directory, and headless Chromium from the @sparticuz/chromium npm package
// driven by playwright-core. Screenshots go to test/e2e/results/ (git-ignored).
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium as playwright, type Browser, type BrowserContext, type Page } from "playwright-core";
import { listFiles } from "../../src/http/web-build";
import { REPO, serve, tempDir, type Served } from "../cli/run";

export const EXECUTABLE = join(REPO, "dist", "confab");
export const RESULTS = join(import.meta.dir, "results");
const SOURCES = ["src", "cli", "migrations", "scripts", "package.json"];

const newest = (path: string): number => {
  const st = statSync(join(REPO, path));
  return st.isDirectory() ? Math.max(0, ...listFiles(join(REPO, path)).map((f) => statSync(join(REPO, path, f)).mtimeMs)) : st.mtimeMs;
};

/** `npm run build`, unless dist/confab is newer than every source file. */
export function ensureExecutable() {
  const built = statSync(EXECUTABLE, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (built > Math.max(...SOURCES.map(newest))) return;
  const r = Bun.spawnSync([process.execPath, "scripts/build.ts", "--outfile", EXECUTABLE], { cwd: REPO, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`build failed:\n${r.stderr.toString()}`);
}

/**
 * Chromium, unpacked once per package version into a directory of its own (@sparticuz/chromium trusts
 * whatever `$TMPDIR/chromium` holds, so it gets a TMPDIR nobody else uses, filled by a rename when
 * complete). `--single-process` is dropped: with it, closing one context would end the whole browser.
 */
export async function launchChromium(): Promise<Browser> {
  const version = JSON.parse(readFileSync(join(REPO, "node_modules/@sparticuz/chromium/package.json"), "utf8")).version;
  const dir = join(REPO, "node_modules", ".cache", `confab-chromium-${version}`);
  if (!statSync(join(dir, "chromium"), { throwIfNoEntry: false })) {
    const staging = `${dir}.tmp-${process.pid}`;
    mkdirSync(staging, { recursive: true });
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = staging;
    try {
      const { default: chromium } = await import("@sparticuz/chromium");
      await chromium.executablePath();
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    try {
      renameSync(staging, dir);
    } catch {
      rmSync(staging, { recursive: true, force: true }); // another run got there first
    }
  }
  // The package's fonts.conf names /tmp/fonts; ours names where its fonts are, and the system's.
  const fontsConf = join(dir, "fonts.conf");
  if (!existsSync(fontsConf))
    writeFileSync(
      fontsConf,
      `<?xml version="1.0"?><fontconfig><dir>${join(dir, "fonts", "fonts")}</dir><dir>/usr/share/fonts</dir><cachedir>${join(dir, "fonts-cache")}</cachedir></fontconfig>\n`,
    );
  const { default: chromium } = await import("@sparticuz/chromium");
  return playwright.launch({
    executablePath: join(dir, "chromium"),
    args: chromium.args.filter((a) => a !== "--single-process"),
    headless: true,
    env: { ...process.env, TMPDIR: dir, FONTCONFIG_FILE: fontsConf } as Record<string, string>,
  });
}

export interface Confab {
  url: string;
  port: number;
  dataDir: string;
  owner: { email: string; password: string; apiKey: string };
  served: Served;
  /** Stops the server and starts it again on the same port and data directory (event queues are lost). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * dist/confab serve on an empty data directory (with `env`'s CONFAB_* settings added); the first-run
 * banner gives the owner's credentials.
 */
export async function startConfab(more: Record<string, string> = {}): Promise<Confab> {
  const tmp = tempDir("confab-e2e-");
  const dataDir = join(tmp.path, "data");
  const env = { CONFAB_LOG_LEVEL: "info", CONFAB_EVENTS_HEARTBEAT_SECONDS: "5", ...more }; // serve() waits for the "listening" line
  let served = await serve(dataDir, { program: [EXECUTABLE], env });
  const out = served.stdout();
  const field = (name: string) => new RegExp(`${name}: +(\\S+)`).exec(out)![1]!;
  const port = Number(new URL(served.url).port);
  const c: Confab = {
    url: served.url,
    port,
    dataDir,
    owner: { email: field("owner email"), password: field("password"), apiKey: field("API key") },
    served,
    async restart() {
      await served.stop();
      c.served = served = await serve(dataDir, { program: [EXECUTABLE], env, args: ["--port", String(port)] });
    },
    async stop() {
      await served.stop();
      tmp.remove();
    },
  };
  return c;
}

/** A call to the API with HTTP Basic (test setup: users, messages from "someone else"). */
export async function api(c: Confab, auth: { email: string; apiKey: string }, method: string, path: string, params: Record<string, unknown> = {}) {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) form.set(k, typeof v === "string" ? v : JSON.stringify(v));
  const res = await fetch(`${c.url}/api/v1${path}${method === "GET" ? "?" + form : ""}`, {
    method,
    headers: { Authorization: "Basic " + Buffer.from(`${auth.email}:${auth.apiKey}`).toString("base64") },
    body: method === "GET" ? undefined : form,
  });
  const body = (await res.json()) as any;
  if (body.result !== "success") throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

let users = 0;
/** A member with a password, made by the owner. */
export async function newMember(c: Confab, name: string) {
  const email = `${name.toLowerCase().replace(/\W+/g, ".")}${++users}@example.com`;
  const password = `${name}-password-${users}`;
  const { user_id } = await api(c, { email: c.owner.email, apiKey: c.owner.apiKey }, "POST", "/users", { email, password, full_name: name });
  const { api_key } = await fetch(`${c.url}/api/v1/fetch_api_key`, { method: "POST", body: new URLSearchParams({ username: email, password }) }).then(
    (r) => r.json() as any,
  );
  return { email, password, userId: user_id as number, apiKey: api_key as string, name };
}

/** A browser context (its own cookies: one person) with a page open at the app. */
export async function openApp(browser: Browser, c: Confab): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(c.url + "/");
  return { context, page };
}

/** Signs in through the app's sign-in form. */
export async function signInThroughForm(page: Page, email: string, password: string) {
  await page.getByTestId("login-email").fill(email);
  await page.getByTestId("login-password").fill(password);
  await page.getByTestId("login-submit").click();
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(RESULTS, { recursive: true });
  // Transitions run to their end first: a drawer caught mid-slide is not what anyone looks at.
  await page.screenshot({ path: join(RESULTS, `${name}.png`), animations: "disabled" });
}
