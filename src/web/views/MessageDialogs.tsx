// Dialogs about one message: edit history, read receipts, move (topic / channel), the emoji picker.
import { useSignal } from "@preact/signals";
import { lazy, Suspense } from "preact/compat";
import { useEffect } from "preact/hooks";
import { api } from "../api/client";
import { fullDate } from "../ui/format";
import { Modal } from "../ui/Modal";
import { sayError } from "../ui/toast";
import { messages, realm, subs, userName } from "../store/state";
import { messageDialog, toggleReaction } from "./actions";
import { RenderedHtml } from "./MessageItem";

const EmojiPicker = lazy(() => import("../ui/EmojiPicker"));

export function MessageDialogs() {
  const d = messageDialog.value;
  if (!d) return null;
  const m = messages.get(d.id)?.value;
  const close = () => (messageDialog.value = null);
  if (!m) return null;
  if (d.kind === "react")
    return (
      <Modal title="Add a reaction" onClose={close}>
        <Suspense fallback={<p>Loading emoji…</p>}>
          <EmojiPicker onPick={(e) => (toggleReaction(m, e), close())} />
        </Suspense>
      </Modal>
    );
  if (d.kind === "history") return <History id={d.id} onClose={close} />;
  if (d.kind === "receipts") return <Receipts id={d.id} onClose={close} />;
  return <Move id={d.id} onClose={close} />;
}

function History({ id, onClose }: { id: number; onClose: () => void }) {
  const list = useSignal<any[] | null>(null);
  useEffect(() => {
    api.get(`messages/${id}/history`).then(
      (r) => (list.value = r.message_history),
      (e) => (sayError(e), onClose()),
    );
  }, [id]);
  return (
    <Modal title="Edit history" onClose={onClose} wide>
      {!list.value ? (
        <p>Loading…</p>
      ) : (
        <ol class="history">
          {list.value.map((h, i) => (
            <li key={i}>
              <div class="hint">
                {i === 0 ? "Sent" : "Edited"} by {h.user_id ? userName(h.user_id) : "someone"} · {fullDate(h.timestamp)}
                {h.prev_topic !== undefined && ` · topic: ${h.prev_topic} → ${h.topic}`}
                {h.prev_stream !== undefined && ` · moved from #${subs.value.get(h.prev_stream)?.name ?? h.prev_stream}`}
              </div>
              <RenderedHtml html={h.content_html_diff ?? h.rendered_content} />
            </li>
          ))}
        </ol>
      )}
    </Modal>
  );
}

function Receipts({ id, onClose }: { id: number; onClose: () => void }) {
  const ids = useSignal<number[] | null>(null);
  useEffect(() => {
    api.get(`messages/${id}/read_receipts`).then(
      (r) => (ids.value = r.user_ids),
      (e) => (sayError(e), onClose()),
    );
  }, [id]);
  return (
    <Modal title="Read by" onClose={onClose}>
      {!ids.value ? (
        <p>Loading…</p>
      ) : ids.value.length ? (
        <ul class="plain">
          {ids.value.map((u) => (
            <li key={u}>{userName(u)}</li>
          ))}
        </ul>
      ) : (
        <p>Nobody has read this message yet.</p>
      )}
    </Modal>
  );
}

function Move({ id, onClose }: { id: number; onClose: () => void }) {
  const m = messages.get(id)!.value;
  const topic = useSignal(m.subject);
  const channel = useSignal(m.stream_id!);
  const mode = useSignal<"change_one" | "change_later" | "change_all">("change_all");
  const busy = useSignal(false);
  async function save(e: Event) {
    e.preventDefault();
    busy.value = true;
    try {
      await api.patch(`messages/${id}`, {
        topic: topic.value !== m.subject ? topic.value : undefined,
        stream_id: channel.value !== m.stream_id ? channel.value : undefined,
        propagate_mode: mode.value,
        send_notification_to_old_thread: false,
        send_notification_to_new_thread: true,
      });
      onClose();
    } catch (err) {
      sayError(err);
    } finally {
      busy.value = false;
    }
  }
  return (
    <Modal title="Move messages" onClose={onClose}>
      <form class="form" onSubmit={save}>
        <label>
          Channel
          <select value={channel.value} onChange={(e) => (channel.value = Number(e.currentTarget.value))} data-testid="move-channel">
            {[...subs.value.values()].map((s) => (
              <option key={s.stream_id} value={s.stream_id}>
                #{s.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Topic
          <input
            value={topic.value}
            maxLength={realm.value.max_topic_length ?? 60}
            onInput={(e) => (topic.value = e.currentTarget.value)}
            data-testid="move-topic"
          />
        </label>
        <label>
          Which messages
          <select value={mode.value} onChange={(e) => (mode.value = e.currentTarget.value as any)}>
            <option value="change_all">All messages in the topic</option>
            <option value="change_later">This message and later ones</option>
            <option value="change_one">Only this message</option>
          </select>
        </label>
        <div class="row end">
          <button class="btn primary" disabled={busy.value} data-testid="move-save">
            Move
          </button>
        </div>
      </form>
    </Modal>
  );
}
