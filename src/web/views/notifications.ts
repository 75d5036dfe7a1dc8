// Desktop notifications (Notification API) for DMs and mentions that arrive while the tab is in the
// background, as the user's notification settings ask.
import { useEffect } from "preact/hooks";
import type { Message } from "../api/types";
import { conversationHref } from "./actions";
import { me, messageHooks, mutedUsers, settings, subs } from "../store/state";

function wanted(m: Message): boolean {
  if (m.sender_id === me.value.user_id || mutedUsers.value.has(m.sender_id) || m.flags.includes("read")) return false;
  const s = settings.value;
  if (m.type === "private") return s.enable_desktop_notifications ?? true;
  const mentioned = m.flags.some((f) => f === "mentioned" || f.endsWith("wildcard_mentioned") || f === "has_alert_word");
  if (mentioned) return s.enable_desktop_notifications ?? true;
  const sub = subs.value.get(m.stream_id!);
  return sub?.desktop_notifications ?? s.enable_stream_desktop_notifications ?? false;
}

function notify(m: Message) {
  if (!document.hidden && document.hasFocus()) return;
  if (typeof Notification === "undefined" || Notification.permission !== "granted" || !wanted(m)) return;
  const where = m.type === "stream" ? `#${subs.value.get(m.stream_id!)?.name} › ${m.subject}` : "Direct message";
  const text = new DOMParser().parseFromString(m.content, "text/html").body.textContent ?? "";
  const n = new Notification(`${m.sender_full_name} (${where})`, { body: text.slice(0, 300), tag: `msg-${m.id}` });
  n.onclick = () => {
    focus();
    location.hash = conversationHref(m);
    n.close();
  };
}

export function useNotifications() {
  useEffect(() => {
    messageHooks.added.push(notify);
    return () => {
      const i = messageHooks.added.indexOf(notify);
      if (i >= 0) messageHooks.added.splice(i, 1);
    };
  }, []);
}

/** Asked from a click (browsers refuse a permission prompt that no gesture started). */
export const askNotificationPermission = () => typeof Notification !== "undefined" && Notification.permission === "default" && Notification.requestPermission();
