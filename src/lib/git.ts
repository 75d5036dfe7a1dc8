// Every git operation confab performs, by spawning git (never inside a transaction). Git runs with a
// fixed, minimal environment: no system or user configuration, no terminal prompts, so a server's
// behaviour does not depend on whoever started it.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export class GitError extends Error {}

export interface Identity {
  name: string;
  email: string;
}

const SERVER_IDENTITY: Identity = { name: "confab", email: "confab@localhost" };

function gitEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: tmpdir(), // no ~/.gitconfig of the server's user
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    LC_ALL: "C",
    ...extra,
  };
}

/** Runs git; resolves to its standard output, or throws GitError with its first error line. */
export async function git(args: string[], o: { cwd?: string; env?: Record<string, string>; allowFail?: boolean } = {}): Promise<string> {
  const proc = Bun.spawn(["git", ...args], { cwd: o.cwd, env: gitEnv(o.env), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0 && !o.allowFail) {
    const line = err.split("\n").find((l) => l.trim()) ?? `git ${args[0]} failed (exit ${code})`;
    throw new GitError(line.replace(/^(fatal|error): /, ""));
  }
  return code === 0 ? out : "";
}

const inRepo = (repo: string, args: string[]) => ["--git-dir", repo, ...args];

export const DEFAULT_BRANCH = "main";

/** A new bare repository whose HEAD names `main`. */
export async function initBare(repo: string): Promise<void> {
  mkdirSync(repo, { recursive: true });
  await git(["init", "--quiet", "--bare", `--initial-branch=${DEFAULT_BRANCH}`, repo]);
}

/** Whether `path` is the top of a git repository (a working tree with .git, or a bare repository). */
export function isRepository(path: string): boolean {
  if (existsSync(join(path, ".git"))) return true;
  return ["HEAD", "objects", "refs"].every((f) => existsSync(join(path, f)));
}

/** The commit a revision names, or null. */
export async function resolveCommit(repo: string, rev: string): Promise<string | null> {
  const out = await git(inRepo(repo, ["rev-parse", "--verify", "--quiet", `${rev}^{commit}`]), { allowFail: true });
  return out.trim() || null;
}

export async function listBranches(repo: string): Promise<{ name: string; sha: string }[]> {
  const out = await git(inRepo(repo, ["for-each-ref", "--format=%(refname:short) %(objectname)", "refs/heads"]));
  return out
    .split("\n")
    .filter(Boolean)
    .map((l) => {
      const [name, sha] = l.split(" ");
      return { name: name!, sha: sha! };
    });
}

/** Paths of the files named `file` in a commit's tree (e.g. every plugin manifest). */
export async function findFiles(repo: string, sha: string, file: string): Promise<string[]> {
  const out = await git(inRepo(repo, ["ls-tree", "-r", "--name-only", "-z", sha]));
  return out.split("\0").filter((p) => p === file || p.endsWith(`/${file}`));
}

/** A file's text at a commit, or null when there is no such file. */
export async function readFileAt(repo: string, sha: string, path: string): Promise<string | null> {
  const proc = Bun.spawn(["git", ...inRepo(repo, ["cat-file", "blob", `${sha}:${path}`])], {
    env: gitEnv(),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "ignore",
  });
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  return code === 0 ? out : null;
}

/**
 * Copies branches and tags of another repository (a path or a URL) into `repo`, replacing branches of
 * the same name. A repository that had no commits takes the source's current branch as its HEAD.
 */
export async function fetchAll(repo: string, source: string): Promise<void> {
  const empty = (await listBranches(repo)).length === 0;
  await git(inRepo(repo, ["fetch", "--quiet", "--no-write-fetch-head", source, "+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"]));
  if (!empty) return;
  const head = (await git(["ls-remote", "--symref", source, "HEAD"], { allowFail: true })).match(/^ref: refs\/heads\/(\S+)\s+HEAD/m)?.[1];
  if (head) await git(inRepo(repo, ["symbolic-ref", "HEAD", `refs/heads/${head}`]));
}

/** The branch HEAD names (`main` unless a fetch set another). */
export async function headBranch(repo: string): Promise<string> {
  return (await git(inRepo(repo, ["symbolic-ref", "--short", "HEAD"]))).trim();
}

/**
 * Commits a directory's files (its .gitignore respected, a .git inside it ignored) as the next commit of
 * `branch`. Returns the new commit, or the current one when nothing changed.
 */
export async function commitDirectory(repo: string, dir: string, branch: string, message: string, author: Identity = SERVER_IDENTITY): Promise<string> {
  const scratch = mkdtempSync(join(tmpdir(), "confab-index-"));
  try {
    const env = {
      GIT_INDEX_FILE: join(scratch, "index"),
      GIT_AUTHOR_NAME: author.name,
      GIT_AUTHOR_EMAIL: author.email,
      GIT_COMMITTER_NAME: SERVER_IDENTITY.name,
      GIT_COMMITTER_EMAIL: SERVER_IDENTITY.email,
    };
    await git(inRepo(repo, ["--work-tree", dir, "add", "--all", "--", "."]), { env, cwd: dir });
    const tree = (await git(inRepo(repo, ["write-tree"]), { env })).trim();
    const parent = await resolveCommit(repo, `refs/heads/${branch}`);
    if (parent && (await git(inRepo(repo, ["rev-parse", `${parent}^{tree}`]))).trim() === tree) return parent;
    const sha = (await git(inRepo(repo, ["commit-tree", tree, ...(parent ? ["-p", parent] : []), "-m", message]), { env })).trim();
    await git(inRepo(repo, ["update-ref", `refs/heads/${branch}`, sha, ...(parent ? [parent] : [])]));
    return sha;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Writes a commit's files into `dest` (created), without a .git: a plugin's checkout. */
export async function exportCommit(repo: string, sha: string, dest: string): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), "confab-index-"));
  try {
    mkdirSync(dest, { recursive: true });
    const env = { GIT_INDEX_FILE: join(scratch, "index") };
    await git(inRepo(repo, ["read-tree", sha]), { env });
    await git(inRepo(repo, ["--work-tree", dest, "checkout-index", "--all", "--force"]), { env });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** A bare mirror of a remote repository at `dest`, created or brought up to date. */
export async function mirror(url: string, dest: string): Promise<void> {
  if (!isRepository(dest)) await git(["clone", "--quiet", "--mirror", url, dest]);
  else await git(inRepo(dest, ["fetch", "--quiet", "--prune", url, "+refs/*:refs/*"]));
}

/** A working tree of `repo` at `path` on a new branch `branch` from `start` (the agent's workspaces). */
export async function addWorktree(repo: string, path: string, branch: string, start: string): Promise<void> {
  await git(inRepo(repo, ["worktree", "add", "--quiet", "-b", branch, path, start]));
}

export async function removeWorktree(repo: string, path: string): Promise<void> {
  await git(inRepo(repo, ["worktree", "remove", "--force", path]));
}
