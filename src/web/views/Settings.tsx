// Personal settings (its own chunk, loaded when opened): profile, password, display, notifications,
// muted users and topics. Every change is a PATCH; the store follows the server's event.
import { useSignal } from "@preact/signals";
import { api } from "../api/client";
import { Avatar } from "../ui/Avatar";
import { Modal } from "../ui/Modal";
import { say, sayError } from "../ui/toast";
import { me, mutedUsers, settings, subs, userName, userTopics } from "../store/state";
import { askNotificationPermission } from "./notifications";

const patch = (k: string, v: unknown) => api.patch("settings", { [k]: v }).catch(sayError);

function Toggle({ name, label }: { name: string; label: string }) {
  return (
    <label class="check">
      <input type="checkbox" data-testid={`setting-${name}`} checked={!!settings.value[name]} onChange={(e) => patch(name, e.currentTarget.checked)} /> {label}
    </label>
  );
}

function Profile() {
  const name = useSignal(me.value.full_name);
  return (
    <section aria-labelledby="s-profile">
      <h3 id="s-profile">Profile</h3>
      <div class="row">
        <Avatar id={me.value.user_id} size={64} />
        <div class="form grow">
          <label>
            Name
            <div class="row">
              <input class="grow" data-testid="settings-name" value={name.value} onInput={(e) => (name.value = e.currentTarget.value)} />
              <button
                class="btn"
                disabled={name.value.trim() === me.value.full_name}
                onClick={() => api.patch("settings", { full_name: name.value.trim() }).then(() => say("Name saved"), sayError)}
              >
                Save
              </button>
            </div>
          </label>
          <label>
            Avatar
            <input
              type="file"
              accept="image/*"
              data-testid="settings-avatar"
              onChange={(e) => {
                const f = e.currentTarget.files?.[0];
                if (!f) return;
                const form = new FormData();
                form.append("file", f, f.name);
                api.post("users/me/avatar", form).then(() => say("Avatar updated"), sayError);
              }}
            />
          </label>
        </div>
      </div>
    </section>
  );
}

function Password() {
  const old = useSignal("");
  const next = useSignal("");
  return (
    <section aria-labelledby="s-password">
      <h3 id="s-password">Password</h3>
      <form
        class="form"
        onSubmit={(e) => {
          e.preventDefault();
          api.patch("settings", { old_password: old.value, new_password: next.value }).then(() => {
            old.value = next.value = "";
            say("Password changed. Your other sessions were signed out.");
          }, sayError);
        }}
      >
        <label>
          Current password
          <input type="password" autoComplete="current-password" required value={old.value} onInput={(e) => (old.value = e.currentTarget.value)} />
        </label>
        <label>
          New password
          <input type="password" autoComplete="new-password" required minLength={8} value={next.value} onInput={(e) => (next.value = e.currentTarget.value)} />
        </label>
        <div class="row end">
          <button class="btn">Change password</button>
        </div>
      </form>
    </section>
  );
}

function Display() {
  const s = settings.value;
  return (
    <section aria-labelledby="s-display">
      <h3 id="s-display">Display</h3>
      <div class="form">
        <label>
          Theme
          <select data-testid="settings-theme" value={s.color_scheme ?? 1} onChange={(e) => patch("color_scheme", Number(e.currentTarget.value))}>
            <option value={1}>Automatic (follow the system)</option>
            <option value={3}>Light</option>
            <option value={2}>Dark</option>
          </select>
        </label>
        <label>
          Time format
          <select value={s.twenty_four_hour_time ? "24" : "12"} onChange={(e) => patch("twenty_four_hour_time", e.currentTarget.value === "24")}>
            <option value="12">1:30 PM</option>
            <option value="24">13:30</option>
          </select>
        </label>
        <Toggle name="enter_sends" label="Enter sends the message (Shift+Enter for a new line; otherwise Ctrl+Enter sends)" />
        <Toggle name="send_private_typing_notifications" label="Let others see when I'm typing" />
        <Toggle name="send_read_receipts" label="Let others see when I've read their messages" />
      </div>
    </section>
  );
}

function Notifications() {
  const perm = typeof Notification === "undefined" ? "unsupported" : Notification.permission;
  return (
    <section aria-labelledby="s-notif">
      <h3 id="s-notif">Notifications</h3>
      <div class="form">
        {perm === "default" && (
          <button class="btn" onClick={() => askNotificationPermission()}>
            Allow desktop notifications in this browser
          </button>
        )}
        {perm === "denied" && <p class="hint">This browser blocks notifications from this site.</p>}
        <Toggle name="enable_desktop_notifications" label="Desktop notifications for direct messages and mentions" />
        <Toggle name="enable_stream_desktop_notifications" label="Desktop notifications for every channel message" />
        <Toggle name="enable_sounds" label="Audible notifications" />
        <Toggle name="wildcard_mentions_notify" label="Notify me of @all / @topic mentions" />
        <Toggle name="enable_offline_email_notifications" label="Email me direct messages and mentions when I'm away" />
      </div>
    </section>
  );
}

function Muted() {
  const topics = [...userTopics.value].filter(([, v]) => v === 1);
  return (
    <section aria-labelledby="s-muted">
      <h3 id="s-muted">Muted users and topics</h3>
      <ul class="plain">
        {[...mutedUsers.value].map((id) => (
          <li key={id} class="row">
            <span class="grow">{userName(id)}</span>
            <button class="btn small" onClick={() => api.delete(`users/me/muted_users/${id}`).catch(sayError)}>
              Unmute
            </button>
          </li>
        ))}
        {topics.map(([key]) => {
          const [sid, ...rest] = key.split(":");
          const topic = rest.join(":");
          return (
            <li key={key} class="row">
              <span class="grow">
                #{subs.value.get(Number(sid))?.name} › {topic}
              </span>
              <button class="btn small" onClick={() => api.post("user_topics", { stream_id: Number(sid), topic, visibility_policy: 0 }).catch(sayError)}>
                Unmute
              </button>
            </li>
          );
        })}
        {!mutedUsers.value.size && !topics.length && <li class="hint">Nothing muted.</li>}
      </ul>
    </section>
  );
}

export default function Settings({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="Personal settings" onClose={onClose} wide>
      <div class="settings" data-testid="settings">
        <Profile />
        <Display />
        <Notifications />
        <Password />
        <Muted />
      </div>
    </Modal>
  );
}
