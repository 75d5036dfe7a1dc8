// The workspace README, edited together (a lazy chunk: CodeMirror 6 + Yjs). Protocol (extensions.md,
// "Editing the README"): a fresh Y.Doc per open; POST opens it and brings the whole state and every
// viewer's awareness; each local change goes out as its Yjs update, each change of our cursor as an
// awareness update (PATCH); ext_readme events bring the others'; DELETE closes it and drops our cursor.
import { EditorView, basicSetup } from "codemirror";
import { useEffect, useRef } from "preact/hooks";
import { yCollab } from "y-codemirror.next";
import { Awareness, applyAwarenessUpdate, encodeAwarenessUpdate } from "y-protocols/awareness";
import * as Y from "yjs";
import { api } from "../../api/client";
import { sayError } from "../../ui/toast";
import { readmeListeners } from "../../store/ext";
import { me } from "../../store/state";

const toB64 = (u: Uint8Array) => {
  let s = "";
  for (let i = 0; i < u.length; i += 0x8000) s += String.fromCharCode(...u.subarray(i, i + 0x8000));
  return btoa(s);
};
const fromB64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

const COLORS = ["#3b64d6", "#c8372d", "#1f8a4c", "#a05ad0", "#d07a14", "#138a99"];
const REMOTE = "remote";

export default function Readme({ uuid }: { uuid: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const doc = new Y.Doc();
    const text = doc.getText("readme");
    const awareness = new Awareness(doc);
    const client = String(doc.clientID);
    const color = COLORS[me.value.user_id % COLORS.length]!;
    awareness.setLocalStateField("user", { name: me.value.full_name, color, colorLight: `${color}33` });
    const path = `ext/workspaces/${uuid}/readme`;
    let open = false;
    let closed = false;
    let view: EditorView | undefined;
    const ownAwareness = () => toB64(encodeAwarenessUpdate(awareness, [doc.clientID]));

    // Local edits and cursor moves, in order, once the server has the client open.
    let chain: Promise<unknown> = Promise.resolve();
    const send = (params: Record<string, string>) => {
      if (!open || closed) return;
      chain = chain.then(() => api.patch(path, { client, ...params })).catch(sayError);
    };
    doc.on("update", (update: Uint8Array, origin: unknown) => origin !== REMOTE && send({ update: toB64(update) }));
    awareness.on("update", ({ added, updated, removed }: { added: number[]; updated: number[]; removed: number[] }, origin: unknown) => {
      if (origin !== REMOTE && [...added, ...updated, ...removed].includes(doc.clientID)) send({ awareness: ownAwareness() });
    });
    const onEvent = (e: { op: string; workspace_uuid: string; client: string; update?: string; awareness?: string }) => {
      if (e.workspace_uuid !== uuid || e.client === client) return;
      if (e.op === "update" && e.update) Y.applyUpdate(doc, fromB64(e.update), REMOTE);
      if (e.op === "awareness" && e.awareness) applyAwarenessUpdate(awareness, fromB64(e.awareness), REMOTE);
    };
    readmeListeners.add(onEvent);

    api
      .post(path, { client, awareness: ownAwareness() })
      .then((r) => {
        if (closed) return;
        Y.applyUpdate(doc, fromB64(r.state), REMOTE);
        applyAwarenessUpdate(awareness, fromB64(r.awareness), REMOTE);
        open = true;
        view = new EditorView({
          doc: text.toString(),
          extensions: [
            basicSetup,
            EditorView.lineWrapping,
            EditorView.contentAttributes.of({ "aria-label": "README", "data-testid": "readme-text" }),
            yCollab(text, awareness),
          ],
          parent: host.current!,
        });
      })
      .catch(sayError);

    return () => {
      closed = true;
      readmeListeners.delete(onEvent);
      view?.destroy();
      if (open) {
        awareness.setLocalState(null);
        void chain.then(() => api.delete(path, { client, awareness: toB64(encodeAwarenessUpdate(awareness, [doc.clientID])) })).catch(() => {});
      }
      awareness.destroy();
      doc.destroy();
    };
  }, [uuid]);
  return (
    <div class="readme-editor" data-testid="readme-editor" ref={host}>
      <p class="hint readme-note">Everyone reading this topic can edit this README with you; it is saved to the workspace as you type.</p>
    </div>
  );
}
