// `confab repo create|import|list` as an operator runs them.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { failure, run, tempDir } from "./run";

const tmp = tempDir();
afterAll(() => tmp.remove());

describe("confab repo", () => {
  test("create, import a directory, list; errors are one line", async () => {
    const dir = join(tmp.path, "data");
    expect((await run(["realm", "create", "--data-dir", dir, "--subdomain", "", "--name", "Org", "--owner-email", "o@org.test"])).code).toBe(0);
    expect(await run(["repo", "create", "tools", "--data-dir", dir, "--description", "our tools"])).toEqual({
      code: 0,
      stdout: "repository 1 created: tools\n",
      stderr: "",
    });
    const src = join(tmp.path, "src");
    mkdirSync(join(src, "hello"), { recursive: true });
    writeFileSync(join(src, "hello", "manifest.json"), "{}");
    const imported = await run(["repo", "import", "tools", src, "--data-dir", dir, "--message", "first"]);
    expect(imported.code).toBe(0);
    const sha = /^tools is at ([0-9a-f]{40})\n$/.exec(imported.stdout)?.[1];
    expect(sha).toBeDefined();
    expect((await run(["repo", "list", "--data-dir", dir])).stdout).toBe(`1\ttools\t${sha}\tour tools\n`);
    expect(JSON.parse((await run(["repo", "list", "--data-dir", dir, "--json"])).stdout)).toEqual([
      { id: 1, name: "tools", description: "our tools", head: sha, created_by: null, date_created: expect.any(Number), date_updated: expect.any(Number) },
    ]);
    expect(failure(await run(["repo", "import", "nope", src, "--data-dir", dir]))).toEqual({
      code: 1,
      lines: ["confab: Repository does not exist"],
      stdout: "",
    });
    expect(failure(await run(["repo", "create", "tools", "--data-dir", dir]))).toEqual({
      code: 1,
      lines: ["confab: A repository named 'tools' already exists"],
      stdout: "",
    });
  });
});
