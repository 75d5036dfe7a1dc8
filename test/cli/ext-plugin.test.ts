// `confab plugin ...` next to a running server: the CLI writes, the server's plugin host notices and
// starts or stops the process.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES } from "../fixtures/plugins/helpers";
import { api, failure, run, serve, tempDir, type Served } from "./run";

const tmp = tempDir();
const dir = join(tmp.path, "data");
const env = { CONFAB_PLUGINS_POLL_MS: "50", CONFAB_PLUGINS_SHUTDOWN_GRACE_MS: "300" };
let served: Served;
let owner: [string, string];

beforeAll(async () => {
  served = await serve(dir, { env });
  owner = [/owner email:\s+(\S+)/.exec(served.stdout())![1]!, /API key:\s+(\S+)/.exec(served.stdout())![1]!];
});
afterAll(async () => {
  await served.stop();
  tmp.remove();
});

const cli = (args: string[]) => run([...args, "--data-dir", dir], { env });
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const v = await read();
    if (ok(v)) return v;
    await Bun.sleep(25);
  }
  throw new Error("not reached");
}
const state = async (id: number) => (await api(served.url, `/ext/plugins/${id}`, { auth: owner })).body.plugin?.state;

describe("confab plugin", () => {
  test("install from a repository, list, logs, remove and restore, with the server following", async () => {
    const src = join(tmp.path, "src");
    cpSync(join(FIXTURES, "silent"), join(src, "silent"), { recursive: true });
    expect((await cli(["repo", "create", "plugins"])).code).toBe(0);
    expect((await cli(["repo", "import", "plugins", src])).code).toBe(0);
    const installed = await cli(["plugin", "install", "--repo", "plugins", "--path", "silent"]);
    expect(installed).toEqual({ code: 0, stdout: "plugin 1 installed: silent 0.1.0, starting\n", stderr: "" });
    const logs = await until(
      () => cli(["plugin", "logs", "1"]),
      (r) => r.stdout.includes("silent is up"),
    );
    expect(logs.stdout).toMatch(/^\[confab\] started pid \d+\nsilent is up\n$/);
    expect((await cli(["plugin", "list"])).stdout).toBe("1\tsilent\t0.1.0\tstarting\tSilent\n");
    expect(JSON.parse((await cli(["plugin", "list", "--json"])).stdout)[0]).toMatchObject({ id: 1, plugin: "silent", installed_by: null, state: "starting" });

    expect(await cli(["plugin", "remove", "1"])).toEqual({ code: 0, stdout: "plugin 1 removed\n", stderr: "" });
    const pid = Number(/started pid (\d+)/.exec(logs.stdout)![1]);
    await until(
      async () => {
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      },
      (alive) => !alive,
    );
    expect(await state(1)).toBe("removed");
    expect(await cli(["plugin", "restore", "1"])).toEqual({ code: 0, stdout: "plugin 1 restored: starting\n", stderr: "" });
    await until(
      () => cli(["plugin", "logs", "1"]),
      (r) => r.stdout.split("silent is up").length === 3,
    );
  });

  test("errors are one line", async () => {
    expect(failure(await cli(["plugin", "install", "--repo", "nope"]))).toEqual({ code: 1, lines: ["confab: Repository does not exist"], stdout: "" });
    expect(failure(await cli(["plugin", "install"]))).toEqual({ code: 1, lines: ["confab: give exactly one of --repo, --codehost or --remote"], stdout: "" });
    expect(failure(await cli(["plugin", "install", "--repo", "plugins", "--path", "missing"])).lines[0]).toMatch(
      /^confab: No manifest\.json in repository 'plugins'\/missing at [0-9a-f]{12}$/,
    );
    expect(failure(await cli(["plugin", "restore", "1"]))).toEqual({ code: 1, lines: ["confab: Plugin is not removed"], stdout: "" });
    expect(failure(await cli(["plugin", "remove", "x"]))).toEqual({ code: 1, lines: ["confab: 'x' is not an install id"], stdout: "" });
    expect(failure(await cli(["plugin", "logs", "99"]))).toEqual({ code: 1, lines: ["confab: Plugin does not exist"], stdout: "" });
  });
});
