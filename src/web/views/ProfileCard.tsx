// A person's profile card (from a message's sender, the users page or, for oneself, the user menu): role,
// email, status (the store's, so it follows changes made anywhere) and the organization's custom profile
// fields. Everyone sets their own status here; administrators edit another's fields (PATCH /users/{id}
// with profile_data) and status (POST /users/{id}/status), as the server allows only them to.
import { signal, useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { api } from "../api/client";
import { Avatar } from "../ui/Avatar";
import { Modal } from "../ui/Modal";
import { roleName } from "../ui/roles";
import { say, sayError } from "../ui/toast";
import { profileFields, type ProfileField } from "../store/admin";
import { dmHref, go } from "../store/router";
import { me, userName, users, userStatus } from "../store/state";

/** The user whose card is open, if any. */
export const profileCard = signal<number | null>(null);

const TYPE = { select: 3, date: 4, link: 5, user: 6 } as const;

type Profile = Record<string, { value: string; rendered_value?: string }>;

const options = (f: ProfileField): [string, string][] => {
  try {
    return Object.entries(JSON.parse(f.field_data || "{}") as Record<string, { text: string; order: string }>)
      .sort((a, b) => Number(a[1].order) - Number(b[1].order))
      .map(([k, o]) => [k, o.text]);
  } catch {
    return [];
  }
};

const userIds = (value: string): number[] => {
  try {
    return JSON.parse(value) as number[];
  } catch {
    return [];
  }
};

/** A value as the card shows it: rendered Markdown for text, an option's label, people's names. */
function FieldValue({ f, v }: { f: ProfileField; v: { value: string; rendered_value?: string } }) {
  if (f.type === TYPE.select) return <>{options(f).find(([k]) => k === v.value)?.[1] ?? v.value}</>;
  if (f.type === TYPE.user) return <>{userIds(v.value).map(userName).join(", ")}</>;
  if (f.type === TYPE.link)
    return (
      <a href={v.value} target="_blank" rel="noopener noreferrer">
        {v.value}
      </a>
    );
  if (v.rendered_value) return <span class="rendered" dangerouslySetInnerHTML={{ __html: v.rendered_value }} />;
  return <>{v.value}</>;
}

/** One field's input; user fields pick one person (the value is a list of ids). */
function FieldInput({ f, value, onInput }: { f: ProfileField; value: string; onInput: (v: string) => void }) {
  const label = { "aria-label": f.name, "data-testid": `profile-input-${f.name}` };
  if (f.type === TYPE.select)
    return (
      <select {...label} value={value} onChange={(e) => onInput(e.currentTarget.value)}>
        <option value="">—</option>
        {options(f).map(([k, text]) => (
          <option value={k}>{text}</option>
        ))}
      </select>
    );
  if (f.type === TYPE.user)
    return (
      <select
        {...label}
        value={String(userIds(value)[0] ?? "")}
        onChange={(e) => onInput(e.currentTarget.value ? JSON.stringify([Number(e.currentTarget.value)]) : "")}
      >
        <option value="">—</option>
        {[...users.value.values()]
          .filter((u) => u.is_active && !u.is_bot)
          .sort((a, b) => a.full_name.localeCompare(b.full_name))
          .map((u) => (
            <option value={u.user_id}>{u.full_name}</option>
          ))}
      </select>
    );
  if (f.type === 2) return <textarea {...label} rows={3} value={value} onInput={(e) => onInput(e.currentTarget.value)} />;
  const set = (e: { currentTarget: HTMLInputElement }) => onInput(e.currentTarget.value);
  if (f.type === TYPE.date) return <input {...label} type="date" value={value} onInput={set} />;
  if (f.type === TYPE.link) return <input {...label} type="url" value={value} onInput={set} />;
  return <input {...label} type="text" value={value} onInput={set} />;
}

function FieldsEditor({ userId, profile, onDone }: { userId: number; profile: Profile; onDone: () => void }) {
  const draft = useSignal<Record<number, string>>(Object.fromEntries(profileFields.value.map((f) => [f.id, profile[f.id]?.value ?? ""])));
  async function save(e: Event) {
    e.preventDefault();
    const changed = profileFields.value.filter((f) => draft.value[f.id] !== (profile[f.id]?.value ?? ""));
    if (!changed.length) return onDone();
    try {
      // An empty value clears the field.
      await api.patch(`users/${userId}`, { profile_data: changed.map((f) => ({ id: f.id, value: draft.value[f.id] || null })) });
      say("Profile saved");
      onDone();
    } catch (err) {
      sayError(err);
    }
  }
  return (
    <form class="form" onSubmit={save} data-testid="profile-editor">
      {profileFields.value.map((f) => (
        <label key={f.id}>
          {f.name}
          <FieldInput f={f} value={draft.value[f.id] ?? ""} onInput={(v) => (draft.value = { ...draft.value, [f.id]: v })} />
          {f.hint && <span class="hint">{f.hint}</span>}
        </label>
      ))}
      <div class="row end">
        <button type="button" class="btn" onClick={onDone}>
          Cancel
        </button>
        <button class="btn primary" data-testid="profile-save">
          Save
        </button>
      </div>
    </form>
  );
}

/** One's own status text (POST /users/me/status), or, for administrators, another's; empty clears it. */
function StatusEditor({ userId, current, onDone }: { userId: number; current: string; onDone: () => void }) {
  const text = useSignal(current);
  const input = useRef<HTMLInputElement>(null);
  // It replaces the button that opened it: the focus moves in, for those on the keyboard.
  useEffect(() => input.current?.focus(), []);
  async function save(e: Event) {
    e.preventDefault();
    try {
      await api.post(userId === me.value.user_id ? "users/me/status" : `users/${userId}/status`, { status_text: text.value.trim() });
      say("Status saved");
      onDone();
    } catch (err) {
      sayError(err);
    }
  }
  return (
    <form class="row" onSubmit={save}>
      <input
        class="grow"
        aria-label="Status"
        maxLength={60}
        placeholder="No status"
        data-testid="profile-status-input"
        ref={input}
        value={text.value}
        onInput={(e) => (text.value = e.currentTarget.value)}
      />
      <button class="btn small primary">Save status</button>
    </form>
  );
}

export function ProfileCard({ userId }: { userId: number }) {
  const u = users.value.get(userId);
  const profile = useSignal<Profile | null>(null);
  const editing = useSignal(false);
  const editingStatus = useSignal(false);
  // A realm_user update (a field changed, here or elsewhere) replaces the user object: fetch again.
  useEffect(() => {
    let gone = false;
    api
      .get(`users/${userId}`, { include_custom_profile_fields: true })
      .then((r) => void (!gone && (profile.value = r.user.profile_data ?? {})))
      .catch(sayError);
    return () => void (gone = true);
  }, [userId, u]);
  const close = () => (profileCard.value = null);
  if (!u) return null;
  const status = userStatus.value.get(userId);
  const isAdmin = me.value.role <= 200;
  const self = u.user_id === me.value.user_id;
  const filled = profileFields.value.filter((f) => profile.value?.[f.id]?.value);
  return (
    <Modal title={u.full_name} onClose={close}>
      <div class="profile-card" data-testid="profile-card">
        <div class="row">
          <Avatar id={u.user_id} size={64} />
          <div class="grow">
            <div class="profile-email">{u.email}</div>
            <div class="hint">
              {u.is_bot ? "Bot" : roleName(u.role)}
              {!u.is_active && " · Deactivated"}
            </div>
            {editingStatus.value ? (
              <StatusEditor userId={userId} current={status?.status_text ?? ""} onDone={() => (editingStatus.value = false)} />
            ) : (
              // A live region: a change made elsewhere is read out while the card is open.
              <div class="profile-status" data-testid="profile-status" aria-live="polite">
                {status?.emoji_name && <span aria-hidden="true">:{status.emoji_name}: </span>}
                {status?.status_text}
                {status?.away && <span class="tag">Away</span>}
              </div>
            )}
          </div>
        </div>
        {editing.value && profile.value ? (
          <FieldsEditor userId={userId} profile={profile.value} onDone={() => (editing.value = false)} />
        ) : (
          <>
            {filled.length > 0 && (
              <dl class="profile-fields" data-testid="profile-fields">
                {filled.map((f) => (
                  <div key={f.id}>
                    <dt>{f.name}</dt>
                    <dd>
                      <FieldValue f={f} v={profile.value![f.id]!} />
                    </dd>
                  </div>
                ))}
              </dl>
            )}
            <div class="row end wrap profile-actions">
              {(self || isAdmin) && u.is_active && !editingStatus.value && (
                <button class="btn" data-testid="profile-set-status" onClick={() => (editingStatus.value = true)}>
                  Set status
                </button>
              )}
              {isAdmin && profileFields.value.length > 0 && !self && !u.is_bot && (
                <button class="btn" data-testid="profile-edit" disabled={!profile.value} onClick={() => (editing.value = true)}>
                  Edit profile fields
                </button>
              )}
              {!self && u.is_active && (
                <button class="btn primary" onClick={() => (close(), go(dmHref([u.user_id])))}>
                  Send a direct message
                </button>
              )}
            </div>
          </>
        )}
      </div>
    </Modal>
  );
}
