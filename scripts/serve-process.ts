// `confab serve` run from an executable the way a fresh install runs it, for the build's start-up profile
// (scripts/bytecode-order.ts) and the arm64 smoke test (scripts/smoke-arm64.ts).

/** This process's environment without CONFAB_ variables: the executable sees only its defaults. */
export const cleanEnv = (): Record<string, string | undefined> => Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("CONFAB_")));

/**
 * `exe serve` on `dataDir` and port 0 (behind `runner`, e.g. qemu), resolved once it logs the address it
 * listens on (`listening url=…`); `output()` is what it has printed so far, standard output and error.
 */
export async function startServe(exe: string, dataDir: string, o: { runner?: string[]; env?: Record<string, string>; timeoutMs?: number } = {}) {
  const proc = Bun.spawn([...(o.runner ?? []), exe, "serve", "--data-dir", dataDir, "--port", "0"], {
    env: { ...cleanEnv(), ...o.env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  let text = "";
  const decoder = new TextDecoder();
  const read = Promise.all(
    [proc.stdout, proc.stderr].map(async (s) => {
      for await (const chunk of s) text += decoder.decode(chunk, { stream: true });
    }),
  );
  const deadline = Date.now() + (o.timeoutMs ?? 30_000);
  let url: string | undefined;
  while (!(url = / listening url=(\S+)/.exec(text)?.[1])) {
    if (proc.exitCode !== null || Date.now() > deadline) {
      proc.kill("SIGKILL");
      throw new Error(`serve did not start (exit ${proc.exitCode}):\n${text}`);
    }
    await Bun.sleep(20);
  }
  return {
    proc,
    url,
    output: () => text,
    /** SIGTERM; its exit code once its output is read to the end. */
    async stop(): Promise<number> {
      proc.kill("SIGTERM");
      const code = await proc.exited;
      await read;
      return code;
    },
  };
}
