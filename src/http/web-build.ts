// Bundles the web client (src/web/index.html and what it imports) with Bun's HTML bundler: one
// index.html naming content-hashed chunks. `npm run build` embeds the result in the executable
// (scripts/build.ts); a server run from source builds it on demand (http/web-client.ts).
import { existsSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";

export const WEB_SOURCE = join(import.meta.dir, "../web");
/** Where a server run from source keeps its build (git-ignored). */
export const WEB_SOURCE_BUILD = join(import.meta.dir, "../../dist/web");

/** Builds into `outdir`, replacing it whole once the build succeeded (a half-written build is never served). */
export async function buildWebClient(outdir: string): Promise<void> {
  const tmp = `${outdir}.tmp-${process.pid}-${Date.now()}`;
  const r = await Bun.build({ entrypoints: [join(WEB_SOURCE, "index.html")], outdir: tmp, minify: !process.env.CONFAB_WEB_NO_MINIFY, splitting: true });
  if (!r.success) {
    rmSync(tmp, { recursive: true, force: true });
    throw new Error(`web client build failed:\n${r.logs.map(String).join("\n")}`);
  }
  rmSync(outdir, { recursive: true, force: true });
  try {
    renameSync(tmp, outdir);
  } catch {
    rmSync(tmp, { recursive: true, force: true }); // another process put its build there first
  }
}

/** Every file under `dir`, as paths relative to it. */
export function listFiles(dir: string, prefix = ""): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listFiles(dir, join(prefix, e.name)) : [join(prefix, e.name)],
  );
}

const newestChange = (dir: string) => Math.max(0, ...listFiles(dir).map((f) => statSync(join(dir, f)).mtimeMs));

/** Whether a client exists in the sources; rebuilds `outdir` first when a source file is newer than it. */
export async function freshWebClient(outdir: string): Promise<boolean> {
  if (!existsSync(join(WEB_SOURCE, "index.html"))) return false;
  const built = statSync(join(outdir, "index.html"), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (newestChange(WEB_SOURCE) > built) await buildWebClient(outdir);
  return true;
}
