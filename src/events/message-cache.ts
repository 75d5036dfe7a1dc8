// A queue must not keep a whole message per undelivered event: a client away for a while would pin
// thousands of messages in memory. Queues keep a small entry (message id, per-user flags); the message
// itself lives once in this bounded cache, shared by every queue, and is read back from the database
// when it has been evicted.

/** What a message event needs besides flags: the message as emitted, its Markdown, its avatar kind. */
export interface MessagePayload {
  message: Record<string, unknown> & { id: number };
  raw_content: string;
  avatar_gravatar: boolean;
}

export type MessageLoader = (id: number) => MessagePayload | null;

export class MessageCache {
  private entries = new Map<number, MessagePayload>();
  load: MessageLoader = () => null;

  constructor(private readonly capacity: number) {}

  put(p: MessagePayload) {
    this.entries.delete(p.message.id);
    this.entries.set(p.message.id, p);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  /** The payload, from memory or (when evicted) from the database; null if the message is gone. */
  get(id: number): MessagePayload | null {
    const hit = this.entries.get(id);
    if (hit) return hit;
    const loaded = this.load(id);
    if (loaded) this.put(loaded);
    return loaded;
  }
}
