// Runs confab's CLI as a subprocess, the way an operator does: `bun cli/index.ts ...`, or a built
// executable. The environment is the test's minus every CONFAB_* variable, so the outer shell's
// settings never leak into a test.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const REPO = join(import.meta.dir, "..", "..");
const ENTRY = join(REPO, "cli", "index.ts");

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** The command line for the CLI: source through bun, or an executable path. */
export type Program = string[];
export const SOURCE: Program = [process.execPath, ENTRY];

/**
 * Tests send many requests quickly as one user: the servers they start have no API rate limits unless
 * a test sets its own (CONFAB_RATE_LIMIT_* in its env).
 */
export const UNLIMITED = { CONFAB_RATE_LIMIT_API_BY_USER: "[]", CONFAB_RATE_LIMIT_API_BY_IP: "[]" };

export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("CONFAB_")) env[k] = v;
  return { ...env, ...extra };
}

export async function run(args: string[], o: { stdin?: string; env?: Record<string, string>; cwd?: string; program?: Program } = {}): Promise<Result> {
  const proc = Bun.spawn([...(o.program ?? SOURCE), ...args], {
    cwd: o.cwd ?? REPO,
    env: cleanEnv(o.env),
    stdin: o.stdin === undefined ? "ignore" : new TextEncoder().encode(o.stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** Asserts-friendly summary of a failure: the exit code and stderr's lines. */
export const failure = (r: Result) => ({ code: r.code, lines: r.stderr.trimEnd().split("\n"), stdout: r.stdout });

export interface Served {
  proc: ReturnType<typeof Bun.spawn>;
  url: string;
  stdout(): string;
  stderr(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number>;
}

/** `serve` on port 0 in the background; resolves once it logs the address it listens on. */
export async function serve(dataDir: string, o: { program?: Program; env?: Record<string, string>; cwd?: string; args?: string[] } = {}): Promise<Served> {
  const proc = Bun.spawn([...(o.program ?? SOURCE), "serve", "--data-dir", dataDir, "--port", "0", ...(o.args ?? [])], {
    cwd: o.cwd ?? REPO,
    env: cleanEnv({ ...UNLIMITED, ...o.env }),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  let out = "";
  let err = "";
  const pump = async (stream: ReadableStream<Uint8Array>, add: (s: string) => void) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) add(decoder.decode(chunk, { stream: true }));
  };
  const pumped = Promise.all([
    pump(proc.stdout as ReadableStream<Uint8Array>, (s) => (out += s)),
    pump(proc.stderr as ReadableStream<Uint8Array>, (s) => (err += s)),
  ]);
  const deadline = Date.now() + 15_000;
  let url: string | undefined;
  while (!(url = / listening url=(\S+)/.exec(err)?.[1])) {
    if (proc.exitCode !== null || Date.now() > deadline) {
      proc.kill();
      await pumped;
      throw new Error(`serve did not start (exit ${proc.exitCode}):\n${out}\n${err}`);
    }
    await Bun.sleep(10);
  }
  return {
    proc,
    url,
    stdout: () => out,
    stderr: () => err,
    async stop() {
      proc.kill("SIGTERM");
      const code = await proc.exited;
      await pumped;
      return code;
    },
  };
}

export function tempDir(prefix = "confab-cli-"): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** GET or POST against a served instance with HTTP Basic credentials. */
export async function api(url: string, path: string, o: { auth?: [string, string]; method?: string; form?: Record<string, string> } = {}) {
  const headers: Record<string, string> = {};
  if (o.auth) headers.Authorization = "Basic " + Buffer.from(`${o.auth[0]}:${o.auth[1]}`).toString("base64");
  const res = await fetch(`${url}/api/v1${path}`, {
    method: o.method ?? (o.form ? "POST" : "GET"),
    headers,
    body: o.form ? new URLSearchParams(o.form) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any };
}
