// `npm run build` (`bun scripts/build.ts --outfile dist/confab`): the web client (src/web), then the
// executable with every client file embedded. Its entry is generated in a staging directory: it hands
// the embedded files to the server, then runs the CLI.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildWebClient, listFiles, WEB_SOURCE } from "../src/http/web-build";

const root = join(import.meta.dir, "..");
const at = process.argv.indexOf("--outfile");
const outfile = resolve(at > 0 ? process.argv[at + 1]! : join(root, "dist", "confab"));
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

  const out = Bun.spawnSync([process.execPath, "build", "--compile", "--minify", "--sourcemap", join(stage, "main.ts"), "--outfile", outfile], {
    cwd: root,
    stdout: "inherit",
    stderr: "inherit",
  });
  if (out.exitCode !== 0) process.exitCode = out.exitCode ?? 1;
} finally {
  rmSync(stage, { recursive: true, force: true });
}
