// `npm run build` (`bun scripts/build.ts --outfile dist/confab`): the web client (src/web), then the
// executable with every client file embedded. Its entry is generated in a staging directory: it hands
// the embedded files to the server, then runs the CLI.
// `npm run build:all` (`bun scripts/build.ts --all`): one executable per target in TARGETS, each named
// dist/confab-<target> with a dist/confab-<target>.sha256 beside it (`sha256sum -c` reads it); Bun
// fetches each target's runtime from the npm registry (@oven/bun-<target>) on first use.
// `bun scripts/build.ts --target linux-arm64 --outfile PATH`: one of TARGETS alone.
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { buildWebClient, listFiles, WEB_SOURCE } from "../src/http/web-build";
import { recordStartOrder } from "./bytecode-order";

/** Every machine a release serves: Bun's target name, and the executable's suffix there. */
export const TARGETS = [
  { name: "linux-x64", suffix: "" },
  { name: "linux-arm64", suffix: "" }, // Raspberry Pi 4/5, ARM servers
  { name: "linux-x64-musl", suffix: "" }, // Alpine
  { name: "darwin-arm64", suffix: "" },
  { name: "darwin-x64", suffix: "" },
  { name: "windows-x64", suffix: ".exe" },
] as const;

const root = join(import.meta.dir, "..");
const dist = join(root, "dist");

/**
 * The compile of the staged entry for `target` (none: this machine).
 * --bytecode: JavaScriptCore's bytecode is compiled at build time, so a start parses nothing; with
 * --bytecode-order, what a start uses lies together (scripts/bytecode-order.ts).
 * --compile-jit-policy: the executable starts with the JIT's tier-up thresholds 50 times higher, so the
 * code that runs once at start is not compiled on the way (`confab serve` sets the normal policy once it
 * listens): a start's CPU to first answer 40 -> 29 ms here.
 * --splitting: what is loaded with import() (nodemailer, tar, fflate) goes in chunks of its own, with the
 * Node built-ins it imports (http, https, zlib, dns, stream): without it the bundle hoists those imports
 * and every start evaluates them.
 */
function compileCommand(stage: string, outfile: string, target: string | undefined, order: string[]): string[] {
  return [
    process.execPath,
    "build",
    "--compile",
    "--minify",
    "--sourcemap",
    "--bytecode",
    ...(order.length ? [`--bytecode-order=${order.join(",")}`] : []),
    "--compile-jit-policy=50",
    "--splitting",
    "--format=esm",
    ...(target ? [`--target=bun-${target}`] : []),
    join(stage, "main.ts"),
    "--outfile",
    outfile,
  ];
}

/** Compiles the executable once per `{ target, outfile }` (no target: this machine's). */
async function build(outputs: { target?: string; outfile: string }[]) {
  const stage = mkdtempSync(join(tmpdir(), "confab-build-"));
  try {
    const web = join(stage, "web");
    let files: string[] = [];
    if (existsSync(join(WEB_SOURCE, "index.html"))) {
      await buildWebClient(web);
      files = listFiles(web);
    } else console.warn("build: no src/web/index.html, the executable has no web client");

    const lines = [
      `import { embedWebClient } from ${JSON.stringify(join(root, "src/http/web-client.ts"))};`,
      ...files.map((f, i) => `import f${i} from ${JSON.stringify(join(web, f))} with { type: "file" };`),
      `embedWebClient({ ${files.map((f, i) => `${JSON.stringify("/" + f)}: f${i}`).join(", ")} });`,
    ];
    writeFileSync(join(stage, "embed-web.ts"), lines.join("\n") + "\n");
    writeFileSync(join(stage, "main.ts"), `import "./embed-web.ts";\nimport ${JSON.stringify(join(root, "cli/index.ts"))};\n`);

    // The start-up profile for --bytecode-order comes from a first build for this machine (a profile
    // names functions by their code, so it applies to every target); without it the executables are only laid out less well.
    const hostExe = join(stage, "profile", "confab");
    const compileHost = Bun.spawnSync(compileCommand(stage, hostExe, undefined, []), { cwd: root, stdout: "ignore", stderr: "inherit" });
    const order =
      compileHost.exitCode === 0
        ? await recordStartOrder(hostExe, join(stage, "profile")).catch((e: Error) => (console.warn(`build: no start-up profile (${e.message})`), []))
        : [];

    if (order.length) console.log(`build: start-up profile of ${order.length} runs (scripts/bytecode-order.ts)`);

    let failed = 0;
    for (const { target, outfile } of outputs) {
      mkdirSync(dirname(outfile), { recursive: true });
      const staged = join(stage, "out", basename(outfile));
      const cmd = compileCommand(stage, staged, target, order);
      const out = Bun.spawnSync(cmd, { cwd: root, stdout: "inherit", stderr: "inherit" });
      if (out.exitCode !== 0) {
        console.error(`build: ${target ?? "this machine"} failed (exit ${out.exitCode})`);
        failed++;
        continue;
      }
      // Only the executable leaves the staging directory (with --splitting, bun also writes a source
      // map per chunk beside it, under new names each build).
      copyFileSync(staged, outfile);
      chmodSync(outfile, 0o755);
      if (target) {
        const sum = new Bun.CryptoHasher("sha256").update(await Bun.file(outfile).arrayBuffer()).digest("hex");
        writeFileSync(`${outfile}.sha256`, `${sum}  ${basename(outfile)}\n`);
        console.log(`build: ${basename(outfile)} ${sum}`);
      }
    }
    if (failed) process.exitCode = 1;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  if (process.argv.includes("--all")) await build(TARGETS.map((t) => ({ target: t.name, outfile: join(dist, `confab-${t.name}${t.suffix}`) })));
  else {
    const arg = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
    const target = arg("--target");
    if (target && !TARGETS.some((t) => t.name === target)) throw new Error(`build: unknown target ${target} (have: ${TARGETS.map((t) => t.name).join(", ")})`);
    await build([{ target, outfile: resolve(arg("--outfile") ?? join(dist, "confab")) }]);
  }
}
