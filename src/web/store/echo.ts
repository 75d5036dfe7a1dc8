// Local echo: a message shows at once as "sending", is replaced by the server's message event
// (matched by local_message_id), and stays with a retry when the send fails.
import { signal } from "@preact/signals";
import { api } from "../api/client";
import type { Message } from "../api/types";
import { currentQueueId } from "./queue";
import { me, messageHooks } from "./state";

export interface Outgoing {
  type: "stream" | "private";
  streamId?: number;
  streamName?: string;
  topic?: string;
  to?: number[];
  content: string;
}

export const echoes = signal<(Message & { local: NonNullable<Message["local"]>; outgoing: Outgoing })[]>([]);
let counter = 0;

export function send(o: Outgoing, existing?: string) {
  const localId = existing ?? `${Date.now()}.${++counter}`;
  const u = me.value;
  const echo = {
    id: Number.MAX_SAFE_INTEGER - counter,
    sender_id: u.user_id,
    sender_full_name: u.full_name,
    sender_email: u.email,
    avatar_url: u.avatar_url,
    content: "",
    timestamp: Math.floor(Date.now() / 1000),
    type: o.type,
    stream_id: o.streamId,
    subject: o.topic ?? "",
    display_recipient:
      o.type === "stream"
        ? (o.streamName ?? "")
        : (o.to ?? []).map((id) => ({ id, email: "", full_name: "" })).concat([{ id: u.user_id, email: u.email, full_name: u.full_name }]),
    flags: ["read"],
    reactions: [],
    is_me_message: o.content.startsWith("/me "),
    local: { state: "sending" as const, raw: o.content, localId },
    outgoing: o,
  };
  echoes.value = [...echoes.value.filter((e) => e.local.localId !== localId), echo];
  api
    .post("messages", {
      type: o.type === "stream" ? "stream" : "private",
      to: o.type === "stream" ? String(o.streamId) : o.to,
      topic: o.topic,
      content: o.content,
      queue_id: currentQueueId(),
      local_id: localId,
    })
    .catch((e) => {
      echoes.value = echoes.value.map((x) => (x.local.localId === localId ? { ...x, local: { ...x.local, state: "failed", error: (e as Error).message } } : x));
    });
}

export const retry = (localId: string) => {
  const e = echoes.value.find((x) => x.local.localId === localId);
  if (e) send(e.outgoing, localId);
};
export const discard = (localId: string) => (echoes.value = echoes.value.filter((x) => x.local.localId !== localId));

/** The message event that replaces an echo names its local id. */
export function settleEcho(localId: string | undefined) {
  if (localId && echoes.value.some((x) => x.local.localId === localId)) discard(localId);
}

messageHooks.added.push((_m, localId) => settleEcho(localId));
