// Zulip's main keyboard shortcuts: c, x, r, Esc, j/k, n, /, ? (and a few more listed in the help).
import { signal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { Modal } from "../ui/Modal";
import { term } from "../store/narrow";
import { go, topicHref, view } from "../store/router";
import { isMutedTopic, subs, unread } from "../store/state";
import { composeOpen, openCompose } from "./Compose";
import { getMessage, replyTo } from "./actions";

/** Whether the shortcut help is shown (`?`, or the user menu in App.tsx). */
export const helpOpen = signal(false);

const KEYS: [string, string][] = [
  ["c", "New message in this channel / topic"],
  ["x", "New direct message"],
  ["r", "Reply to the selected (or last) message"],
  ["Enter", "Reply, like r"],
  ["j / k", "Select the next / previous message"],
  ["n", "Go to the next unread topic"],
  ["/", "Search"],
  ["Esc", "Close a dialog, leave the compose box, or go back to the combined feed"],
  ["i", "Inbox"],
  ["?", "This list"],
];

export function ShortcutHelp({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="Keyboard shortcuts" onClose={onClose}>
      <table class="shortcuts">
        <tbody>
          {KEYS.map(([k, what]) => (
            <tr key={k}>
              <td>
                <kbd>{k}</kbd>
              </td>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Modal>
  );
}

function selectedMessage(): HTMLElement | null {
  const list = document.querySelector("[data-testid=message-list]");
  return list?.querySelector<HTMLElement>(".message.selected") ?? null;
}

function select(el: HTMLElement | null) {
  if (!el) return;
  document.querySelectorAll(".message.selected").forEach((x) => x.classList.remove("selected"));
  el.classList.add("selected");
  el.scrollIntoView({ block: "nearest" });
  el.focus({ preventScroll: true });
}

function move(dir: 1 | -1) {
  const all = [...document.querySelectorAll<HTMLElement>("[data-testid=message-list] .message[data-message-id]")];
  if (!all.length) return;
  const cur = selectedMessage();
  const i = cur ? all.indexOf(cur) : dir === 1 ? -1 : all.length;
  select(all[Math.max(0, Math.min(all.length - 1, i + dir))] ?? null);
}

function nextUnreadTopic() {
  const v = view.value;
  const here = v.kind === "messages" ? `${term(v.terms, "channel")}:${String(term(v.terms, "topic") ?? "").toLowerCase()}` : "";
  const topics = new Map<string, { streamId: number; topic: string; first: number }>();
  for (const [id, e] of unread.value) {
    if (e.streamId === undefined || subs.value.get(e.streamId)?.is_muted || isMutedTopic(e.streamId, e.topic!)) continue;
    const k = `${e.streamId}:${e.topic!.toLowerCase()}`;
    if (k !== here && (!topics.has(k) || topics.get(k)!.first > id)) topics.set(k, { streamId: e.streamId, topic: e.topic!, first: id });
  }
  const next = [...topics.values()].sort((a, b) => a.first - b.first)[0];
  if (next) go(topicHref(next.streamId, next.topic));
}

export function useShortcuts() {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement;
      const typing = t.closest("input, textarea, select, [contenteditable]") !== null;
      if (e.key === "Escape") {
        if (typing) return (t as HTMLElement).blur();
        if (document.querySelector(".modal")) return;
        // Esc steps back: a selected message, then an open compose box, then to the combined feed.
        const sel = selectedMessage();
        if (sel) sel.classList.remove("selected");
        else if (composeOpen.value) composeOpen.value = false;
        else if (view.value.kind === "messages" && view.value.terms.length) go("#feed");
        return;
      }
      if (typing || e.ctrlKey || e.metaKey || e.altKey || document.querySelector(".modal")) return;
      const v = view.value;
      const terms = v.kind === "messages" ? v.terms : [];
      switch (e.key) {
        case "c": {
          const ch = term(terms, "channel");
          const dm = term(terms, "dm") as number[] | undefined;
          openCompose(
            ch !== undefined
              ? { streamId: Number(ch), topic: String(term(terms, "topic") ?? "") }
              : dm
                ? { to: dm }
                : { streamId: [...subs.value.keys()][0] ?? 0, topic: "" },
          );
          break;
        }
        case "x":
          openCompose({ dm: true });
          break;
        case "r":
        case "Enter": {
          const el = selectedMessage() ?? [...document.querySelectorAll<HTMLElement>("[data-testid=message-list] .message[data-message-id]")].at(-1);
          const m = el && getMessage(Number(el.dataset.messageId));
          if (m) replyTo(m);
          else return;
          break;
        }
        case "j":
        case "ArrowDown":
          if (e.key === "ArrowDown" && !selectedMessage()) return;
          move(1);
          break;
        case "k":
        case "ArrowUp":
          if (e.key === "ArrowUp" && !selectedMessage()) return;
          move(-1);
          break;
        case "n":
          nextUnreadTopic();
          break;
        case "/":
          document.querySelector<HTMLElement>("[data-testid=search-input]")?.focus();
          break;
        case "i":
          go("#inbox");
          break;
        case "?":
          helpOpen.value = true;
          break;
        default:
          return;
      }
      e.preventDefault();
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, []);
}
