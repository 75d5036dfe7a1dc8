// Message lists, one per narrow: the ids fetched (anchor + num_before/num_after), extended live by
// message events when the app can tell a message belongs there (store/narrow.ts `matches`).
import { signal } from "@preact/signals";
import { api } from "../api/client";
import type { Message, NarrowTerm } from "../api/types";
import { matches, narrowKey, type View } from "./narrow";
import { isMutedChannel, me, messageHooks, messages, setMessage } from "./state";

export class MessageList {
  readonly ids = signal<number[]>([]);
  readonly foundOldest = signal(false);
  readonly foundNewest = signal(false);
  readonly loading = signal(false);
  readonly error = signal<string | null>(null);
  /** The message to show first: the first unread (or the `near` target) when the list opened. */
  anchor: number | null = null;
  private started: Promise<void> | null = null;
  /** The first page, asked for at boot while /register is still answering (see `prefetchFirstList`). */
  private early: Promise<Page> | null = null;

  constructor(
    readonly terms: NarrowTerm[],
    readonly near?: number,
  ) {}

  private request(params: Record<string, unknown>) {
    return api.get<Page>("messages", {
      narrow: this.terms.map(({ operator, operand, negated }) => ({ operator, operand, negated: !!negated })),
      apply_markdown: true,
      client_gravatar: true, // gravatar pictures are remote: the app shows initials instead, and register is smaller
      ...params,
    });
  }

  private async fetch(params: Record<string, unknown>, page?: Promise<Page>) {
    const r = await (page ?? this.request(params));
    for (const m of r.messages) setMessage({ ...m, reactions: m.reactions ?? [], flags: m.flags ?? [] });
    return r;
  }

  private readonly firstPage = () => ({ anchor: this.near ?? "first_unread", num_before: 60, num_after: 60 });

  prefetch() {
    this.early ??= this.request(this.firstPage());
    this.early.catch(() => {}); // start() reports it
  }

  start(): Promise<void> {
    return (this.started ??= (async () => {
      this.loading.value = true;
      const early = this.early;
      this.early = null;
      try {
        const r = await this.fetch(this.firstPage(), early ?? undefined);
        const firstUnread = r.messages.find((m) => !(m.flags ?? []).includes("read"))?.id;
        this.anchor = this.near ?? firstUnread ?? null;
        this.ids.value = r.messages.map((m) => m.id);
        this.foundOldest.value = r.found_oldest;
        this.foundNewest.value = r.found_newest;
        // A page asked for before the event queue existed may miss what changed in between: once it is
        // painted, read the same range again (events cover everything after the queue was made).
        if (early) requestAnimationFrame(() => void this.resync().catch(() => {}));
      } catch (e) {
        this.error.value = (e as Error).message;
        this.started = null;
      } finally {
        this.loading.value = false;
      }
    })());
  }

  async older() {
    if (this.loading.value || this.foundOldest.value || !this.ids.value.length) return;
    this.loading.value = true;
    try {
      const r = await this.fetch({ anchor: this.ids.value[0], include_anchor: false, num_before: 100, num_after: 0 });
      const have = new Set(this.ids.value);
      this.ids.value = [...r.messages.map((m) => m.id).filter((id) => !have.has(id)), ...this.ids.value];
      this.foundOldest.value = r.found_oldest;
    } finally {
      this.loading.value = false;
    }
  }

  async newer() {
    if (this.loading.value || this.foundNewest.value || !this.ids.value.length) return;
    this.loading.value = true;
    try {
      const r = await this.fetch({ anchor: this.ids.value.at(-1), include_anchor: false, num_before: 0, num_after: 100 });
      const have = new Set(this.ids.value);
      this.ids.value = [...this.ids.value, ...r.messages.map((m) => m.id).filter((id) => !have.has(id))];
      this.foundNewest.value = r.found_newest;
    } finally {
      this.loading.value = false;
    }
  }

  /** After a reconnect: refetch what the list shows (edits missed meanwhile) and what came after it. */
  async resync() {
    if (!this.ids.value.length) {
      this.started = null;
      return this.start();
    }
    const r = await this.fetch({ anchor: this.ids.value[0], num_before: 0, num_after: Math.min(this.ids.value.length + 400, 5000) });
    this.ids.value = r.messages.map((m) => m.id);
    this.foundNewest.value = r.found_newest;
  }

  add(m: Message) {
    if (!this.foundNewest.value || !this.started) return;
    if (matches(this.terms, m, me.value.user_id, isMutedChannel) !== true) return;
    const ids = this.ids.value;
    if (ids.includes(m.id)) return;
    this.ids.value = ids.length && ids.at(-1)! > m.id ? [...ids, m.id].sort((a, b) => a - b) : [...ids, m.id];
  }

  remove(gone: number[]) {
    const set = new Set(gone);
    if (this.ids.value.some((id) => set.has(id))) this.ids.value = this.ids.value.filter((id) => !set.has(id));
  }

  /** A message moved (or a flag this list filters on changed): drop what no longer belongs. */
  recheck() {
    const keep = this.ids.value.filter((id) => {
      const m = messages.get(id)?.value;
      return !m || matches(this.terms, m, me.value.user_id, isMutedChannel) !== false;
    });
    if (keep.length !== this.ids.value.length) this.ids.value = keep;
  }
}

type Page = { messages: Message[]; found_oldest: boolean; found_newest: boolean; anchor: number };

const lists = new Map<string, MessageList>();

export function listFor(terms: NarrowTerm[], near?: number): MessageList {
  const key = narrowKey(terms) + (near ? `@${near}` : "");
  let l = lists.get(key);
  if (!l) {
    l = new MessageList(terms, near);
    lists.set(key, l);
    // Keep a few recent lists (switching back is instant); forget the rest.
    if (lists.size > 12) lists.delete(lists.keys().next().value!);
  }
  return l;
}

/** At boot, the open view's first messages are asked for alongside /register, not after it. */
export function prefetchFirstList(v: View) {
  if (v.kind === "messages") listFor(v.terms, v.near).prefetch();
}

/** After a re-register: lists other than the open one are dropped, the open one refreshed. */
export async function resyncLists(open: MessageList | null) {
  for (const [k, l] of lists) if (l !== open) lists.delete(k);
  await open?.resync();
}

messageHooks.added.push((m) => lists.forEach((l) => l.add(m)));
messageHooks.removed.push((ids) => lists.forEach((l) => l.remove(ids)));
messageHooks.reset.push(() => lists.forEach((l) => l.recheck()));
