// `npm run build:all`'s linux-arm64 executable (Raspberry Pi 4/5), run on this machine under qemu-user
// (scripts/smoke-arm64.ts): it prints its version, starts, and answers server_settings. Where qemu or
// the arm64 C library is missing the test is skipped, saying what to install.
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { arm64Runner, smoke } from "../../scripts/smoke-arm64";
import { FEATURE_LEVEL, SERVICE_VERSION } from "../../src/version";
import { REPO, tempDir } from "./run";

const runner = arm64Runner();
if (typeof runner === "string") console.warn(`build-all.test.ts: the arm64 smoke test is skipped: ${runner}`);
const tmp = tempDir("confab-arm64-build-");
afterAll(() => tmp.remove());

test.if(typeof runner !== "string")(
  "the linux-arm64 executable runs under qemu: version, serve, server_settings",
  async () => {
    const exe = join(tmp.path, "confab-linux-arm64");
    const b = Bun.spawnSync([process.execPath, "scripts/build.ts", "--target", "linux-arm64", "--outfile", exe], { cwd: REPO, stdout: "pipe", stderr: "pipe" });
    expect({ code: b.exitCode, stderr: b.stderr.toString() }).toEqual({ code: 0, stderr: expect.any(String) });
    const sum = (await Bun.file(`${exe}.sha256`).text()).split(/\s+/);
    expect(sum).toEqual([new Bun.CryptoHasher("sha256").update(await Bun.file(exe).arrayBuffer()).digest("hex"), "confab-linux-arm64", ""]);
    const r = await smoke(exe, runner as string[]);
    expect(r).toMatchObject({
      version: `confab ${SERVICE_VERSION} (feature level ${FEATURE_LEVEL})`,
      server_settings_status: 200,
      zulip_version: SERVICE_VERSION,
    });
  },
  400_000,
);
