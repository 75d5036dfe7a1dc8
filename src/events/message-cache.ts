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

export type MessageLoader = (id: number) => Promise<MessagePayload | null>;

export class MessageCache {
  private entries = new Map<number, MessagePayload>();
  load: MessageLoader = async () => null;

  constructor(private readonly capacity: number) {}

  put(p: MessagePayload) {
    this.entries.delete(p.message.id);
    this.entries.set(p.message.id, p);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  /** The payload in memory, if it was not evicted. */
  get(id: number): MessagePayload | null {
    return this.entries.get(id) ?? null;
  }

  /**
   * These messages' payloads, those evicted read back from the database (null: the message is gone):
   * read before a queue's events are shaped, which happens without awaiting.
   */
  async read(ids: Iterable<number>): Promise<Map<number, MessagePayload | null>> {
    const out = new Map<number, MessagePayload | null>();
    for (const id of ids) {
      if (out.has(id)) continue;
      let p = this.entries.get(id) ?? null;
      if (!p) {
        p = await this.load(id);
        if (p) this.put(p);
      }
      out.set(id, p);
    }
    return out;
  }
}
