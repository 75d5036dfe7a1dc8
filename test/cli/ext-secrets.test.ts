// `confab secrets set|list|rm` as an operator runs them: values from standard input only, never
// printed; the key from CONFAB_SECRETS_KEY or a key file only its owner may read.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { failure, run, tempDir } from "./run";

const tmp = tempDir();
afterAll(() => tmp.remove());
let n = 0;
/** A fresh data directory with one organization. */
async function dataDir(env: Record<string, string> = {}) {
  const dir = join(tmp.path, `d${++n}`);
  const r = await run(["realm", "create", "--data-dir", dir, "--subdomain", "", "--name", "Org", "--owner-email", "o@org.test"], { env });
  expect(r.code).toBe(0);
  return dir;
}

describe("confab secrets", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await dataDir();
  });

  test("set reads the value from standard input; list shows names, hints and notes, never values", async () => {
    const value = "tok_" + "9".repeat(20) + "wxyz";
    const set = await run(["secrets", "set", "DEPLOY_TOKEN", "--data-dir", dir, "--note", "deploys"], { stdin: value + "\n" });
    expect(set).toEqual({ code: 0, stdout: "secret DEPLOY_TOKEN added (ends in wxyz)\n", stderr: "" });
    expect((await run(["secrets", "set", "SHORT", "--data-dir", dir], { stdin: "abc" })).stdout).toBe("secret SHORT added\n");
    const list = await run(["secrets", "list", "--data-dir", dir]);
    expect(list.stdout).toBe("DEPLOY_TOKEN\t…wxyz\tdeploys\nSHORT\t-\n");
    const json = JSON.parse((await run(["secrets", "list", "--data-dir", dir, "--json"])).stdout);
    expect(json.map((s: any) => [s.name, s.hint, s.added_by])).toEqual([
      ["DEPLOY_TOKEN", "wxyz", null],
      ["SHORT", "", null],
    ]);
    expect(readFileSync(join(dir, "confab.db")).includes(Buffer.from(value))).toBe(false);
    expect(statSync(join(dir, "secrets.key")).mode & 0o777).toBe(0o600);
  });

  test("set on an existing name gives it a new value; rm deletes it", async () => {
    expect((await run(["secrets", "set", "SHORT", "--data-dir", dir], { stdin: "a-much-longer-value-0042" })).stdout).toBe("secret SHORT replaced\n");
    const json = JSON.parse((await run(["secrets", "list", "--data-dir", dir, "--json"])).stdout);
    expect(json.find((s: any) => s.name === "SHORT")).toMatchObject({ hint: "0042", replaced_by: null, date_replaced: expect.any(Number) });
    expect((await run(["secrets", "rm", "SHORT", "--data-dir", dir])).stdout).toBe("secret SHORT deleted\n");
    expect(failure(await run(["secrets", "rm", "SHORT", "--data-dir", dir]))).toEqual({ code: 1, lines: ["confab: No secret named 'SHORT'"], stdout: "" });
  });

  test("the API's rules apply; no value, no argument value", async () => {
    expect(failure(await run(["secrets", "set", "PATH", "--data-dir", dir], { stdin: "x" }))).toEqual({
      code: 1,
      lines: ["confab: Secret name 'PATH' is reserved: every run sets it itself"],
      stdout: "",
    });
    expect(failure(await run(["secrets", "set", "EMPTY", "--data-dir", dir], { stdin: "" }))).toEqual({
      code: 1,
      lines: ["confab: no value on standard input"],
      stdout: "",
    });
    expect(failure(await run(["secrets", "set", "TWO", "value", "--data-dir", dir], { stdin: "x" })).code).toBe(1);
  });

  test("a key file others can read is refused", async () => {
    const d = await dataDir();
    expect((await run(["secrets", "set", "A_KEY", "--data-dir", d], { stdin: "x" })).code).toBe(0);
    chmodSync(join(d, "secrets.key"), 0o644);
    const key = join(d, "secrets.key");
    expect(failure(await run(["secrets", "set", "B_KEY", "--data-dir", d], { stdin: "x" }))).toEqual({
      code: 1,
      lines: [`confab: ${key} must be readable by its owner only (chmod 600 ${key})`],
      stdout: "",
    });
  });

  test("CONFAB_SECRETS_KEY keeps the key out of the data directory; a malformed one is refused", async () => {
    const d = await dataDir();
    const env = { CONFAB_SECRETS_KEY: "ab".repeat(32) };
    expect((await run(["secrets", "set", "ENV_KEYED", "--data-dir", d], { stdin: "x", env })).code).toBe(0);
    expect(existsSync(join(d, "secrets.key"))).toBe(false);
    expect(failure(await run(["secrets", "set", "BAD_KEY", "--data-dir", d], { stdin: "x", env: { CONFAB_SECRETS_KEY: "short" } }))).toEqual({
      code: 1,
      lines: ["confab: CONFAB_SECRETS_KEY: the secrets key must be 32 bytes (64 hex digits or base64)"],
      stdout: "",
    });
  });
});
