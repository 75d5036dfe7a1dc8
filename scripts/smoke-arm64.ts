// The linux-arm64 executable (Raspberry Pi 4/5) run on this x64 machine under qemu-user: it prints its
// version, starts on an empty data directory and answers GET /api/v1/server_settings.
//   bun scripts/smoke-arm64.ts [EXECUTABLE]   (default dist/confab-linux-arm64, from `npm run build:all`)
// Prints one JSON line { version, server_settings_status, zulip_version, start_ms } and exits 0, or
// names what failed and exits 1; exits 3 with a message when qemu or the arm64 C library is missing
// (Debian: `apt-get install qemu-user-static libc6-arm64-cross`).
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanEnv, startServe } from "./serve-process";

const QEMU = ["qemu-aarch64-static", "qemu-aarch64"];
/** Where Debian's cross packages (libc6-arm64-cross) or a multiarch install keep the arm64 loader. */
const SYSROOTS = ["/usr/aarch64-linux-gnu", "/"];
const LOADER = "lib/ld-linux-aarch64.so.1";

/** The command prefix that runs an arm64 Linux executable here, or why there is none. */
export function arm64Runner(): string[] | string {
  if (process.arch === "arm64") return [];
  const qemu = QEMU.map((q) => Bun.which(q)).find(Boolean);
  if (!qemu) return `no ${QEMU.join(" or ")} on PATH (apt-get install qemu-user-static)`;
  const sysroot = SYSROOTS.find((r) => existsSync(join(r, LOADER)));
  if (!sysroot) return `no arm64 C library (${SYSROOTS.map((r) => join(r, LOADER)).join(", ")}; apt-get install libc6-arm64-cross)`;
  return [qemu, "-L", sysroot];
}

export async function smoke(exe: string, runner: string[]) {
  const tmp = mkdtempSync(join(tmpdir(), "confab-arm64-"));
  try {
    const v = Bun.spawnSync([...runner, exe, "version"], { env: cleanEnv(), stdout: "pipe", stderr: "pipe" });
    if (v.exitCode !== 0) throw new Error(`version exited ${v.exitCode}: ${v.stderr}`);
    const t0 = performance.now();
    // Emulation is slow: a start takes seconds, not milliseconds.
    const s = await startServe(exe, join(tmp, "data"), { runner, timeoutMs: 120_000 });
    try {
      const res = await fetch(`${s.url}/api/v1/server_settings`);
      const body = (await res.json()) as { zulip_version?: string };
      return {
        version: v.stdout.toString().trim(),
        server_settings_status: res.status,
        zulip_version: body.zulip_version,
        start_ms: Math.round(performance.now() - t0),
      };
    } finally {
      await s.stop();
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const exe = process.argv[2] ?? join(import.meta.dir, "..", "dist", "confab-linux-arm64");
  const runner = arm64Runner();
  if (typeof runner === "string") {
    console.error(`smoke-arm64: cannot run arm64 here: ${runner}`);
    process.exit(3);
  }
  if (!existsSync(exe)) {
    console.error(`smoke-arm64: no ${exe} (npm run build:all first)`);
    process.exit(1);
  }
  try {
    console.log(JSON.stringify(await smoke(exe, runner)));
  } catch (e) {
    console.error(`smoke-arm64: ${(e as Error).message}`);
    process.exit(1);
  }
}
