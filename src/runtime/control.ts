// The control socket: how a CLI command reaches the running server on the same data directory, so
// that what it revokes (a deactivated user, a regenerated API key, a new password, a deactivated realm)
// ends that user's queues and long-polls in the server at once, not only in the CLI's own process.
//
// Why a Unix socket in the data directory rather than a table the server polls: it acts within
// milliseconds and costs nothing while idle; the directory is private to confab's account (0700), so
// only the operator can connect; and when no server runs there is nothing to tell (queues live in
// memory). The database change itself is committed first, so the message only has to say whose rights
// went. Protocol: one JSON Revocation per line; the server answers "ok" per line it acted on.
import { chmodSync, existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { App } from "../context";
import { isRevocation } from "../actions/access";
import type { Revocation } from "../context";

export const controlSocketPath = (dataDir: string) => join(dataDir, "control.sock");

/** Listens on the control socket; returns the function that stops listening. */
export function startControlSocket(app: App): () => void {
  // On PostgreSQL the nodes share the data directory and a CLI command is a node too: its revocations
  // reach every node over the event bus (db/event-bus.ts), so there is no socket to collide.
  if (app.node) return () => {};
  const path = controlSocketPath(app.config.dataDir);
  rmSync(path, { force: true }); // left by a server that died; the pid file keeps a second one away
  let listener: ReturnType<typeof Bun.listen<{ buf: string }>>;
  try {
    listener = Bun.listen<{ buf: string }>({
      unix: path,
      socket: {
        open(s) {
          s.data = { buf: "" };
        },
        data(s, chunk) {
          s.data.buf += chunk.toString();
          if (s.data.buf.length > 65536) return void s.end(); // not a CLI
          let i: number;
          while ((i = s.data.buf.indexOf("\n")) >= 0) {
            const line = s.data.buf.slice(0, i);
            s.data.buf = s.data.buf.slice(i + 1);
            let msg: unknown;
            try {
              msg = JSON.parse(line);
            } catch {}
            if (!isRevocation(msg)) {
              s.write("error\n");
              continue;
            }
            app.revoke(msg);
            app.log.info("control", msg as Record<string, unknown>);
            s.write("ok\n");
          }
        },
      },
    });
    chmodSync(path, 0o600);
  } catch (e) {
    app.log.warn("control socket unavailable: CLI changes reach this server only as database changes", { path, error: String(e) });
    return () => {};
  }
  return () => {
    listener.stop(true);
    rmSync(path, { force: true });
  };
}

/** Sends revocations to the server running on `dataDir`, if any; resolves once it acted (or 2 s passed). */
export async function tellServer(dataDir: string, revocations: Revocation[]): Promise<boolean> {
  const path = controlSocketPath(dataDir);
  if (!revocations.length || !existsSync(path)) return false;
  return new Promise<boolean>((resolve) => {
    let answered = 0;
    let text = "";
    const done = (ok: boolean) => {
      clearTimeout(timer);
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), 2000);
    Bun.connect({
      unix: path,
      socket: {
        open(s) {
          s.write(revocations.map((r) => JSON.stringify(r) + "\n").join(""));
        },
        data(s, chunk) {
          text += chunk.toString();
          answered = text.split("\n").length - 1;
          if (answered >= revocations.length) {
            s.end();
            done(true);
          }
        },
        close: () => done(answered >= revocations.length),
        error: () => done(false),
        connectError: () => done(false),
      },
    }).catch(() => done(false));
  });
}
