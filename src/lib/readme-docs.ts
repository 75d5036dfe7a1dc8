// The workspace READMEs being edited: one Yjs document and awareness per README while any client has
// it open, loaded from the file on first open (so a restart, or the last client leaving, loses no
// text) and written back to the file a moment after each change. Pure memory and files: the caller
// checks who may edit and tells the other viewers.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Awareness } from "y-protocols/awareness";
import type * as YTypes from "yjs";

/**
 * Yjs and its awareness protocol load with the first README opened, not at start: most servers open
 * none for a long while, and loading them costs about 10 ms and 9 MB (measured in a compiled executable).
 */
let loaded: { Y: typeof YTypes; awareness: typeof import("y-protocols/awareness"); decoding: typeof import("lib0/decoding") } | undefined;
const yjs = () => (loaded ??= { Y: require("yjs"), awareness: require("y-protocols/awareness"), decoding: require("lib0/decoding") });

/** The shared text clients bind their editor to: `doc.getText("readme")`. */
export const README_TEXT = "readme";
/** Names a worktree's README may already have; a new one is README.md. */
const README_NAMES = ["README.md", "README", "README.markdown", "README.txt", "readme.md", "Readme.md"];
/** Changes are written to the file this long after the last one (and at once when the last client closes). */
const SAVE_DELAY_MS = 300;

export class ReadmeError extends Error {}

interface OpenDoc {
  doc: YTypes.Doc;
  awareness: Awareness;
  file: string;
  /** Open clients (Yjs client ids) and the user each belongs to. */
  clients: Map<number, number>;
  save: Timer | null;
}

export function readmeFile(dir: string): string {
  const found = README_NAMES.find((n) => existsSync(join(dir, n)));
  return join(dir, found ?? README_NAMES[0]!);
}

/** Checks an awareness update names only `client` (no one edits another's cursor) and is well formed. */
export function checkAwareness(update: Uint8Array, client: number) {
  const { decoding } = yjs();
  try {
    const d = decoding.createDecoder(update);
    const n = decoding.readVarUint(d);
    for (let i = 0; i < n; i++) {
      if (decoding.readVarUint(d) !== client) throw new ReadmeError("An awareness update may only change the sending client's state");
      decoding.readVarUint(d);
      JSON.parse(decoding.readVarString(d));
    }
    if (decoding.hasContent(d)) throw new Error("trailing bytes");
  } catch (e) {
    throw e instanceof ReadmeError ? e : new ReadmeError("Invalid awareness update");
  }
}

export class ReadmeDocs {
  private readonly docs = new Map<string, OpenDoc>();

  constructor(
    /** Awareness states that expired (a client that stopped renewing its cursor): the viewers hear of it. */
    private readonly onExpired: (uuid: string, client: number, awareness: Uint8Array) => void,
    /** A change the server made (the file changed under the open document): the viewers get it as an update. */
    private readonly onServerUpdate: (uuid: string, client: number, update: Uint8Array) => void,
    private readonly onSaveError: (file: string, e: unknown) => void,
  ) {}

  /** Adds a client (loading the document from `dir` if nobody has it open); returns the document's state and every cursor. */
  open(uuid: string, dir: string, client: number, userId: number): { state: Uint8Array; awareness: Uint8Array } {
    const { Y, awareness: aw } = yjs();
    let d = this.docs.get(uuid);
    if (!d) {
      const file = readmeFile(dir);
      const doc = new Y.Doc();
      doc.getText(README_TEXT).insert(0, existsSync(file) ? readFileSync(file, "utf8") : "");
      const awareness = new aw.Awareness(doc);
      awareness.setLocalState(null); // the server has no cursor
      d = { doc, awareness, file, clients: new Map(), save: null };
      const opened = d;
      awareness.on("update", ({ removed }: { removed: number[] }, origin: unknown) => {
        if (origin === "timeout") for (const c of removed) this.onExpired(uuid, c, aw.encodeAwarenessUpdate(opened.awareness, [c]));
      });
      doc.on("update", () => this.scheduleSave(opened));
      this.docs.set(uuid, d);
    }
    d.clients.set(client, userId);
    return { state: Y.encodeStateAsUpdate(d.doc), awareness: aw.encodeAwarenessUpdate(d.awareness, [...d.awareness.getStates().keys()]) };
  }

  /** The user a client belongs to, or undefined when it does not have the README open. */
  userOf = (uuid: string, client: number): number | undefined => this.docs.get(uuid)?.clients.get(client);

  /** The users with a client that has the README open. */
  viewers = (uuid: string): number[] => [...new Set(this.docs.get(uuid)?.clients.values() ?? [])];

  /** Merges a client's Yjs update; throws ReadmeError for one that does not decode. */
  update(uuid: string, update: Uint8Array) {
    const { Y } = yjs();
    const d = this.docs.get(uuid)!;
    try {
      Y.decodeUpdate(update); // refuse garbage before any of it touches the document
    } catch {
      throw new ReadmeError("Invalid update");
    }
    Y.applyUpdate(d.doc, update, "client");
  }

  awareness(uuid: string, client: number, update: Uint8Array) {
    checkAwareness(update, client);
    yjs().awareness.applyAwarenessUpdate(this.docs.get(uuid)!.awareness, update, client);
  }

  /**
   * Removes a client, applying its closing awareness update (or removing its cursor itself); returns the
   * awareness update the other viewers get, if it had a cursor. The last client out saves the file and frees the document.
   */
  close(uuid: string, client: number, update: Uint8Array | null): Uint8Array | null {
    const aw = yjs().awareness;
    const d = this.docs.get(uuid)!;
    if (update) this.awareness(uuid, client, update);
    if (d.awareness.getStates().has(client)) aw.removeAwarenessStates(d.awareness, [client], "close");
    // A client that never showed a cursor has none to remove.
    const out = d.awareness.meta.has(client) ? aw.encodeAwarenessUpdate(d.awareness, [client]) : null;
    d.clients.delete(client);
    if (!d.clients.size) this.unload(uuid);
    return out;
  }

  /** Saves and forgets a README (its workspace is going away, or the server is stopping); returns who had it open. */
  unload(uuid: string): number[] {
    const d = this.docs.get(uuid);
    if (!d) return [];
    const viewers = this.viewers(uuid);
    this.docs.delete(uuid);
    if (d.save) this.save(d);
    d.awareness.destroy();
    d.doc.destroy();
    return viewers;
  }

  unloadAll() {
    for (const uuid of [...this.docs.keys()]) this.unload(uuid);
  }

  /** Writes pending changes now (before someone else, e.g. an agent turn, reads the file). */
  flush(uuid: string) {
    const d = this.docs.get(uuid);
    if (d?.save) this.save(d);
  }

  /**
   * Takes in a change made to the file itself (by an agent turn working in the worktree): the open
   * document is edited to match, as one replacement of the span that differs, and the viewers get it.
   */
  syncFromFile(uuid: string) {
    const d = this.docs.get(uuid);
    if (!d) return;
    this.flush(uuid);
    const now = existsSync(d.file) ? readFileSync(d.file, "utf8") : "";
    const text = d.doc.getText(README_TEXT);
    const was = text.toString();
    if (now === was) return;
    let start = 0;
    while (start < was.length && start < now.length && was[start] === now[start]) start++;
    let end = 0;
    while (end < was.length - start && end < now.length - start && was[was.length - 1 - end] === now[now.length - 1 - end]) end++;
    const { Y } = yjs();
    const before = Y.encodeStateVector(d.doc);
    d.doc.transact(() => {
      text.delete(start, was.length - start - end);
      text.insert(start, now.slice(start, now.length - end));
    }, "file");
    if (d.save) clearTimeout(d.save); // the file already holds this text
    d.save = null;
    this.onServerUpdate(uuid, d.doc.clientID, Y.encodeStateAsUpdate(d.doc, before));
  }

  /** The README's text as the open document holds it (or null when nobody has it open). */
  text = (uuid: string): string | null => this.docs.get(uuid)?.doc.getText(README_TEXT).toString() ?? null;

  private scheduleSave(d: OpenDoc) {
    if (d.save) return;
    d.save = setTimeout(() => this.save(d), SAVE_DELAY_MS);
  }

  /** Writes the text to a temporary file and renames it over the README, so a crash never leaves half a file. */
  private save(d: OpenDoc) {
    if (d.save) clearTimeout(d.save);
    d.save = null;
    const tmp = `${d.file}.confab-tmp`;
    try {
      writeFileSync(tmp, d.doc.getText(README_TEXT).toString());
      renameSync(tmp, d.file);
    } catch (e) {
      this.onSaveError(d.file, e);
    }
  }
}
