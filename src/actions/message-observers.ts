// Observers of messages people send, told once the message is committed: long-lived helpers (the
// agent) react to conversations without the send path knowing them. Nothing here may throw into the
// sender, and nothing runs inside the send's transaction.
import type { App } from "../context";

export interface SentMessage {
  realmId: number;
  messageId: number;
  senderId: number;
  /** The conversation: a channel's recipient, or the direct-message group's. */
  recipientId: number;
  /** Null for a direct message. */
  channelId: number | null;
  topic: string;
  /** Everyone in a direct-message conversation, the sender included; empty for a channel message. */
  participantIds: readonly number[];
  /** Users the content mentions by name (not silently, not through groups or wildcards). */
  mentionedUserIds: readonly number[];
}

export type SentMessageObserver = (m: SentMessage) => void;

const observers = new WeakMap<App, SentMessageObserver[]>();

/** Subscribes to an app's sent messages; returns the unsubscribe function. */
export function observeSentMessages(app: App, fn: SentMessageObserver): () => void {
  const list = observers.get(app) ?? [];
  observers.set(app, [...list, fn]);
  return () => observers.set(app, (observers.get(app) ?? []).filter((f) => f !== fn));
}

/** Called by the send path right after its transaction; observers run after the COMMIT, or never. */
export function messageSent(app: App, m: SentMessage) {
  const list = observers.get(app);
  if (!list?.length) return;
  app.writer.settled().then(
    () => {
      for (const fn of list)
        try {
          fn(m);
        } catch (e) {
          app.log.error("message observer failed", { error: String((e as Error)?.stack ?? e) });
        }
    },
    () => {}, // the COMMIT failed: the message does not exist
  );
}
