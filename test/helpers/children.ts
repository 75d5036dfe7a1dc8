// Processes a test started and must not outlive its run (killed by test/setup.ts after the last file),
// kept apart from their harnesses so that the preload loads nothing else.
const alive = new Set<{ kill(signal?: number | NodeJS.Signals): void; exited: Promise<number> }>();

/** Remembers `proc` until it exits. */
export function track(proc: { kill(signal?: number | NodeJS.Signals): void; exited: Promise<number> }) {
  alive.add(proc);
  void proc.exited.then(() => alive.delete(proc));
}

/** SIGKILLs every tracked process still running. */
export function killAllChildren() {
  for (const p of alive) p.kill("SIGKILL");
  alive.clear();
}
