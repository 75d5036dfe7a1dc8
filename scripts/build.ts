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

    let failed = 0;
    for (const { target, outfile } of outputs) {
      mkdirSync(dirname(outfile), { recursive: true });
      const staged = join(stage, "out", basename(outfile));
      // --bytecode: JavaScriptCore's bytecode is compiled at build time, so a start parses nothing.
      // --splitting: what is loaded with import() (nodemailer, tar, fflate) goes in chunks of its own,
      // with the Node built-ins it imports (http, https, zlib, dns, stream): without it the bundle
      // hoists those imports and every start evaluates them.
      const cmd = [
        process.execPath,
        "build",
        "--compile",
        "--minify",
        "--sourcemap",
        "--bytecode",
        "--splitting",
        "--format=esm",
        ...(target ? [`--target=bun-${target}`] : []),
        join(stage, "main.ts"),
        "--outfile",
        staged,
      ];
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
