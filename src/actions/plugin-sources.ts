// Where a plugin comes from: a realm repository, a code host mirror, or a remote service; the manifest
// read at a pinned commit and checked, and what it requires of the server and other plugins.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { App } from "../context";
import type { RealmRow } from "../db/schema";
import {
  couldNotFetch,
  couldNotReach,
  invalidManifestNotValidJson,
  invalidSourcePath,
  missingConditional,
  manifestMissing,
  noCommit,
  pluginRequiresConfabServer,
  pluginRequiresPluginWhichNot,
  shaMustCommitHash,
  sourceMustCodehostOwnerRepository,
  sourceMustPluginServicesHttp,
  unknownCodeHost,
} from "../domain/errors";
import { checkManifest, MANIFEST_SCHEMA, type Manifest } from "../domain/plugin-manifest";
import { compileJsonSchema, type ValidateFunction } from "../lib/json-schema";
import * as gitOps from "../lib/git";
import * as store from "../store/plugins";
import { findRealmRepository, MANIFEST_FILE, repositoryDir } from "./repositories";

/** Where to install from (POST /ext/plugins's source parameters). */
export interface SourceArgs {
  source_kind: "codehost" | "local" | "remote";
  source?: string;
  source_repository_id?: number;
  source_path?: string;
  sha?: string;
}

interface Fetched {
  manifest: Manifest;
  source: string;
  sourceRepositoryId: number | null;
  sourcePath: string;
  sha: string;
  /** Writes the files at the pinned commit into a directory (not for remote plugins). */
  checkout?: (dest: string) => Promise<void>;
}

let manifestValidator: ValidateFunction | undefined;

function parseManifest(text: string | null, where: string): Manifest {
  if (text === null) throw manifestMissing(MANIFEST_FILE, where);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw invalidManifestNotValidJson(MANIFEST_FILE, where);
  }
  return checkManifest(json, (manifestValidator ??= compileJsonSchema(MANIFEST_SCHEMA)));
}

/** `a/b/` → `a/b`; no `..`, no absolute paths. */
function cleanPath(path: string): string {
  const parts = path.split("/").filter((x) => x && x !== ".");
  if (parts.some((x) => x === "..")) throw invalidSourcePath();
  return parts.join("/");
}

async function fromRepository(repo: string, rev: string, sourcePath: string, label: string): Promise<Omit<Fetched, "source" | "sourceRepositoryId">> {
  const sha = await gitOps.resolveCommit(repo, rev);
  if (!sha) throw noCommit(rev, label);
  const manifestPath = sourcePath ? `${sourcePath}/${MANIFEST_FILE}` : MANIFEST_FILE;
  const manifest = parseManifest(await gitOps.readFileAt(repo, sha, manifestPath), `${label}${sourcePath ? `/${sourcePath}` : ""} at ${sha.slice(0, 12)}`);
  return { manifest, sourcePath, sha, checkout: (dest) => gitOps.exportCommit(repo, sha, dest) };
}

/** Reads the manifest from the install's source, pinned at a commit (or, remote, from the service). */
export async function fetchSource(app: App, realm: RealmRow, a: SourceArgs): Promise<Fetched> {
  const sourcePath = cleanPath(a.source_path ?? "");
  switch (a.source_kind) {
    case "local": {
      if (a.source_repository_id === undefined) throw missingConditional("source_repository_id");
      const repo = await findRealmRepository(app, realm, a.source_repository_id);
      const f = await fromRepository(repositoryDir(app, repo), a.sha || "HEAD", sourcePath, `repository '${repo.name}'`);
      return { ...f, source: "", sourceRepositoryId: repo.id };
    }
    case "codehost": {
      const m = /^([a-z0-9.-]+)\/([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/.exec(a.source ?? "");
      if (!m || m[2]!.startsWith(".") || m[3]!.startsWith(".")) throw sourceMustCodehostOwnerRepository();
      const [, host, owner, name] = m;
      const base = app.config.plugins.codehosts.find((c) => c.startsWith(`${host}=`))?.slice(host!.length + 1);
      if (!base) throw unknownCodeHost(host);
      if (!a.sha) throw missingConditional("sha");
      if (!/^[0-9a-f]{7,40}$/.test(a.sha)) throw shaMustCommitHash();
      const mirror = join(app.config.dataDir, "codehost", host!, owner!, `${name}.git`);
      mkdirSync(join(mirror, ".."), { recursive: true });
      try {
        await gitOps.mirror(`${base.replace(/\/+$/, "")}/${owner}/${name}`, mirror);
      } catch (e) {
        throw couldNotFetch(a.source, (e as Error).message);
      }
      const f = await fromRepository(mirror, a.sha, sourcePath, a.source!);
      return { ...f, source: a.source!, sourceRepositoryId: null };
    }
    case "remote": {
      const address = (a.source ?? "").replace(/\/+$/, "");
      if (!/^https?:\/\/[^\s/]+(\/\S*)?$/i.test(address)) throw sourceMustPluginServicesHttp();
      let text: string | null;
      try {
        const res = await fetch(`${address}/${MANIFEST_FILE}`, { signal: AbortSignal.timeout(10_000) });
        text = res.ok ? await res.text() : null;
      } catch (e) {
        throw couldNotReach(address, (e as Error).message);
      }
      return { manifest: parseManifest(text, address), source: address, sourceRepositoryId: null, sourcePath: "", sha: "" };
    }
  }
}

export async function checkRequires(app: App, realm: RealmRow, m: Manifest, version: string) {
  for (const [name, range] of Object.entries(m.requires ?? {})) {
    if (name === "confab") {
      if (!Bun.semver.satisfies(version, range)) throw pluginRequiresConfabServer(range, version);
      continue;
    }
    const ok = (await store.listPlugins(app.db, realm.id)).some(
      (p) => p.plugin === name && !p.dateRemoved && p.state !== "draft" && Bun.semver.satisfies(p.version, range),
    );
    if (!ok) throw pluginRequiresPluginWhichNot(name, range);
  }
}
