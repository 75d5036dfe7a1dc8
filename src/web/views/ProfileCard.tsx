// A person's profile card (from a message's sender or the users page): role, email, status and the
// organization's custom profile fields. Administrators edit another's fields (PATCH /users/{id} with
// profile_data) and status (POST /users/{id}/status) here, as the server allows only them to.
import { signal, useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { api } from "../api/client";
import { Avatar } from "../ui/Avatar";
import { Modal } from "../ui/Modal";
import { roleName } from "../ui/roles";
import { say, sayError } from "../ui/toast";
import { profileFields, type ProfileField } from "../store/admin";
import { dmHref, go } from "../store/router";
import { me, userName, users } from "../store/state";

/** The user whose card is open, if any. */
export const profileCard = signal<number | null>(null);

const TYPE = { select: 3, date: 4, link: 5, user: 6 } as const;

interface Loaded {
  profile: Record<string, { value: string; rendered_value?: string }>;
  status: { status_text?: string; emoji_name?: string; away?: boolean };
}

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

function FieldsEditor({ userId, loaded, onDone }: { userId: number; loaded: Loaded; onDone: () => void }) {
  const draft = useSignal<Record<number, string>>(Object.fromEntries(profileFields.value.map((f) => [f.id, loaded.profile[f.id]?.value ?? ""])));
  async function save(e: Event) {
    e.preventDefault();
    const changed = profileFields.value.filter((f) => draft.value[f.id] !== (loaded.profile[f.id]?.value ?? ""));
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

/** Administrators set another user's status text (POST /users/{id}/status); empty clears it. */
function StatusEditor({ userId, current, onDone }: { userId: number; current: string; onDone: () => void }) {
  const text = useSignal(current);
  async function save(e: Event) {
    e.preventDefault();
    try {
      await api.post(`users/${userId}/status`, { status_text: text.value.trim() });
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
        value={text.value}
        onInput={(e) => (text.value = e.currentTarget.value)}
      />
      <button class="btn small primary">Save status</button>
    </form>
  );
}

export function ProfileCard({ userId }: { userId: number }) {
  const u = users.value.get(userId);
  const loaded = useSignal<Loaded | null>(null);
  const editing = useSignal(false);
  const editingStatus = useSignal(false);
  const reloads = useSignal(0);
  // A realm_user update (a field changed, here or elsewhere) replaces the user object: fetch again.
  useEffect(() => {
    let gone = false;
    Promise.all([api.get(`users/${userId}`, { include_custom_profile_fields: true }), api.get(`users/${userId}/status`)])
      .then(([r, s]) => void (!gone && (loaded.value = { profile: r.user.profile_data ?? {}, status: s.status ?? {} })))
      .catch(sayError);
    return () => void (gone = true);
  }, [userId, u, reloads.value]);
  const close = () => (profileCard.value = null);
  if (!u) return null;
  const status = loaded.value?.status;
  const isAdmin = me.value.role <= 200;
  const filled = profileFields.value.filter((f) => loaded.value?.profile[f.id]?.value);
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
            {editingStatus.value && loaded.value ? (
              <StatusEditor userId={userId} current={status?.status_text ?? ""} onDone={() => ((editingStatus.value = false), reloads.value++)} />
            ) : (
              status &&
              (status.status_text || status.emoji_name || status.away) && (
                <div class="profile-status" data-testid="profile-status">
                  {status.emoji_name && <span aria-hidden="true">:{status.emoji_name}: </span>}
                  {status.status_text}
                  {status.away && <span class="tag">Away</span>}
                </div>
              )
            )}
          </div>
        </div>
        {editing.value && loaded.value ? (
          <FieldsEditor userId={userId} loaded={loaded.value} onDone={() => (editing.value = false)} />
        ) : (
          <>
            {filled.length > 0 && (
              <dl class="profile-fields" data-testid="profile-fields">
                {filled.map((f) => (
                  <div key={f.id}>
                    <dt>{f.name}</dt>
                    <dd>
                      <FieldValue f={f} v={loaded.value!.profile[f.id]!} />
                    </dd>
                  </div>
                ))}
              </dl>
            )}
            <div class="row end wrap profile-actions">
              {isAdmin && u.user_id !== me.value.user_id && u.is_active && !editingStatus.value && (
                <button class="btn" data-testid="profile-set-status" disabled={!loaded.value} onClick={() => (editingStatus.value = true)}>
                  Set status
                </button>
              )}
              {isAdmin && profileFields.value.length > 0 && u.user_id !== me.value.user_id && !u.is_bot && (
                <button class="btn" data-testid="profile-edit" disabled={!loaded.value} onClick={() => (editing.value = true)}>
                  Edit profile fields
                </button>
              )}
              {u.user_id !== me.value.user_id && u.is_active && (
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
