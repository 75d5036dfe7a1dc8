// The search box: Zulip's narrow grammar (channel:, topic:, sender:, dm:, is:, has:, -negation, free
// text) with suggestions for the word being typed.
import { signal, useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import type { NarrowTerm } from "../api/types";
import { Typeahead, typeaheadKey, type Suggestion } from "../ui/Typeahead";
import { narrowHref, go, view } from "../store/router";
import { me, streams, subs, users } from "../store/state";

export const searchText = signal("");

function words(q: string): string[] {
  return q.match(/-?\w+:"[^"]*"?|"[^"]*"?|\S+/g) ?? [];
}

const unquote = (s: string) => s.replace(/^"|"$/g, "");

export function parseSearch(q: string): NarrowTerm[] {
  const terms: NarrowTerm[] = [];
  const text: string[] = [];
  for (const w of words(q)) {
    const m = w.match(/^(-?)(\w+):(.+)$/);
    if (!m) {
      text.push(w);
      continue;
    }
    const negated = m[1] === "-";
    let operator = m[2]!.toLowerCase();
    const raw = unquote(m[3]!);
    if (operator === "stream") operator = "channel";
    if (operator === "pm-with" || operator === "dm-with") operator = "dm";
    if (operator === "subject") operator = "topic";
    if (operator === "channel") {
      const s = [...subs.value.values(), ...streams.value.values()].find((x) => x.name.toLowerCase() === raw.toLowerCase());
      terms.push({ operator, operand: s ? s.stream_id : raw, negated });
    } else if (operator === "sender" || operator === "dm") {
      const ids = raw
        .split(",")
        .map((x) =>
          x === "me"
            ? me.value.user_id
            : ([...users.value.values()].find((u) => u.email.toLowerCase() === x.toLowerCase() || u.full_name.toLowerCase() === x.toLowerCase())?.user_id ?? x),
        );
      terms.push(operator === "dm" ? { operator, operand: ids.map(Number).filter((n) => n > 0), negated } : { operator, operand: ids[0]!, negated });
    } else terms.push({ operator, operand: raw, negated });
  }
  if (text.length) terms.push({ operator: "search", operand: text.map(unquote).join(" ") });
  return terms;
}

/** The search box text for a narrow (so the box shows where one is). */
export function unparse(terms: NarrowTerm[]): string {
  const q = (s: string) => (/\s/.test(s) ? `"${s}"` : s);
  return terms
    .map((t) => {
      if (t.operator === "search") return String(t.operand);
      let v = String(t.operand);
      if (t.operator === "channel") v = subs.value.get(Number(t.operand))?.name ?? streams.value.get(Number(t.operand))?.name ?? v;
      if (t.operator === "sender") v = users.value.get(Number(t.operand))?.email ?? v;
      if (t.operator === "dm") v = (t.operand as number[]).map((id) => users.value.get(id)?.email ?? id).join(",");
      return `${t.negated ? "-" : ""}${t.operator}:${q(v)}`;
    })
    .join(" ");
}

const IS = ["starred", "mentioned", "unread", "dm", "resolved", "followed", "alerted"];
const HAS = ["link", "image", "attachment", "reaction"];

function suggestions(q: string, set: (text: string, submit: boolean) => void): Suggestion[] {
  const ws = words(q);
  const trailing = /\s$/.test(q) || !q;
  const last = trailing ? "" : (ws.at(-1) ?? "");
  const head = trailing ? q : q.slice(0, q.length - last.length);
  const out: Suggestion[] = [];
  const add = (text: string, label: string, submit = false) => out.push({ key: text + label, label, pick: () => set(head + text, submit) });
  const m = last.match(/^(-?)(\w+):(.*)$/);
  if (m) {
    const [, neg, op, val] = m;
    const v = unquote(val!).toLowerCase();
    if (op === "channel" || op === "stream")
      [...subs.value.values()]
        .filter((s) => s.name.toLowerCase().startsWith(v))
        .slice(0, 6)
        .forEach((s) => add(`${neg}channel:${/\s/.test(s.name) ? `"${s.name}"` : s.name} `, `Messages in #${s.name}`));
    else if (op === "sender" || op === "dm")
      [...users.value.values()]
        .filter((u) => u.is_active && (u.full_name.toLowerCase().includes(v) || u.email.toLowerCase().startsWith(v)))
        .slice(0, 6)
        .forEach((u) => add(`${neg}${op}:${u.email} `, `${op === "dm" ? "Direct messages with" : "Sent by"} ${u.full_name}`));
    else if (op === "is") IS.filter((x) => x.startsWith(v)).forEach((x) => add(`${neg}is:${x} `, `${neg ? "Not " : ""}${x} messages`));
    else if (op === "has") HAS.filter((x) => x.startsWith(v)).forEach((x) => add(`${neg}has:${x} `, `Messages with ${x}s`));
    return out.slice(0, 8);
  }
  if (q.trim()) out.push({ key: "__search", label: `Search for ${q.trim()}`, pick: () => set(q, true) });
  const l = last.toLowerCase();
  for (const op of ["channel:", "topic:", "sender:", "dm:", "is:", "has:"]) if (l && op.startsWith(l)) add(op, `${op} …`);
  if (l.length >= 2) {
    [...subs.value.values()]
      .filter((s) => s.name.toLowerCase().startsWith(l))
      .slice(0, 3)
      .forEach((s) => add(`channel:${s.name} `, `Channel #${s.name}`));
    [...users.value.values()]
      .filter((u) => u.is_active && u.full_name.toLowerCase().startsWith(l))
      .slice(0, 3)
      .forEach((u) => add(`sender:${u.email} `, `Sent by ${u.full_name}`));
  }
  return out.slice(0, 8);
}

export function SearchBox() {
  const focused = useSignal(false);
  const active = useSignal(0);
  const submit = (text: string) => {
    const terms = parseSearch(text);
    go(terms.length ? narrowHref(terms) : "#feed");
    focused.value = false; // the suggestions close with the search, not when the blur's delay ends
    (document.activeElement as HTMLElement)?.blur();
  };
  const set = (text: string, now: boolean) => {
    searchText.value = text;
    active.value = 0;
    if (now) submit(text);
  };
  const items = focused.value ? suggestions(searchText.value, set) : [];
  // The box shows where one is (by name once the channels are known); typing edits that.
  const v = view.value;
  const here = v.kind === "messages" ? unparse(v.terms) : "";
  useEffect(() => {
    if (!focused.value) searchText.value = here;
  }, [here]);
  return (
    <form class="search ta-wrap" role="search" onSubmit={(e) => (e.preventDefault(), submit(searchText.value))}>
      <input
        data-testid="search-input"
        aria-label="Search messages"
        placeholder="Search (channel: topic: sender: is: has:)"
        value={searchText.value}
        role="combobox"
        aria-expanded={items.length > 0}
        aria-controls="search-ta"
        aria-activedescendant={items.length ? `search-ta-${active.value}` : undefined}
        onFocus={() => (focused.value = true)}
        onBlur={() => setTimeout(() => (focused.value = false), 120)}
        onInput={(e) => ((searchText.value = e.currentTarget.value), (active.value = 0))}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !items.length) return;
          if (e.key === "Enter" && active.value === 0 && items[0]?.key === "__search") return; // the form submits
          typeaheadKey(e, items, active, () => (e.currentTarget as HTMLInputElement).blur());
        }}
      />
      <Typeahead id="search-ta" items={items} active={active.value} onHover={(i) => (active.value = i)} />
    </form>
  );
}
