// The pieces every administration page is made of: a form control generated from a property table's
// setting kind (the same tables the server validates with), the group-setting picker, and a list
// whose order the administrator changes. Each control saves itself: a checkbox or a choice at once,
// a text field on Enter or when it loses focus; the toast (a live region) says "Saved" or the error.
import { useSignal } from "@preact/signals";
import type { ComponentChildren } from "preact";
import { api } from "../../api/client";
import type { SettingKind } from "../../../domain/realm-settings";
import type { GroupSettingValue, PermissionConfig } from "../../../domain/group-settings";
import { me, streams, subs, userGroups, users } from "../../store/state";
import { say, sayError } from "../../ui/toast";

/** Runs an administration call; the toast tells how it went (the store follows the server's event). */
export async function act(f: () => Promise<unknown>, done = "Saved"): Promise<boolean> {
  try {
    await f();
    if (done) say(done);
    return true;
  } catch (e) {
    sayError(e);
    return false;
  }
}

/** `can_create_public_channel_group` → "Who can create public channel"; others "Allow message editing". */
export function labelOf(name: string): string {
  if (LABELS[name]) return LABELS[name];
  const group = /^can_(.*)_group$|^(.*)_group$/.exec(name);
  if (group) return `Who can ${(group[1] ?? group[2])!.replace(/_/g, " ")}`;
  const s = name
    .replace(/_/g, " ")
    .replace(/\bstreams?\b/g, "channel")
    .replace(/ id$/, "");
  return s[0]!.toUpperCase() + s.slice(1);
}
const LABELS: Record<string, string> = {
  name: "Organization name",
  description: "Organization description",
  org_type: "Organization type",
  can_access_all_users_group: "Who can see every user",
  can_create_groups: "Who can create user groups",
  create_multiuse_invite_group: "Who can create reusable invitation links",
  direct_message_initiator_group: "Who can start direct messages",
  direct_message_permission_group: "Who can take part in direct messages",
  can_mention_many_users_group: "Who can notify a large number of users with a wildcard mention",
  waiting_period_threshold: "Days before a new member becomes a full member",
  message_retention_days: "Delete messages after (days)",
  upload_quota_mib: "Upload quota for the organization (MiB)",
  jitsi_server_url: "Jitsi server URL (empty: the server's default)",
  welcome_message_custom_text: "Custom text in the welcome message for new users",
  new_stream_announcements_stream_id: "Channel for new channel announcements",
  signup_announcements_stream_id: "Channel for new user announcements",
  zulip_update_announcements_stream_id: "Channel for server update announcements",
  moderation_request_channel_id: "Channel for moderation requests",
};

/** Names for the choices of enumerated settings, where a number alone would say nothing. */
const CHOICES: Record<string, Record<string | number, string>> = {
  org_type: {
    0: "Unspecified",
    10: "Business",
    20: "Open-source project",
    30: "Education (non-profit)",
    35: "Education (for-profit)",
    40: "Research",
    50: "Event or conference",
    60: "Non-profit",
    70: "Government",
    80: "Political group",
    90: "Community",
    100: "Personal",
    1000: "Other",
  },
  digest_weekday: { 0: "Monday", 1: "Tuesday", 2: "Wednesday", 3: "Thursday", 4: "Friday", 5: "Saturday", 6: "Sunday" },
  video_chat_provider: { 0: "None", 1: "Jitsi Meet" },
  giphy_rating: { 0: "GIPHY disabled", 1: "Rated Y", 2: "Rated G", 3: "Rated PG", 4: "Rated PG-13", 5: "Rated R" },
  color_scheme: { 1: "Automatic", 2: "Dark", 3: "Light" },
  email_address_visibility: { 1: "Everyone", 2: "Members only", 3: "Administrators only", 4: "Nobody", 5: "Moderators only" },
  web_mark_read_on_scroll_policy: { 1: "Always", 2: "Only in conversation views", 3: "Never" },
  web_channel_default_view: { 1: "Top topic", 2: "Channel feed", 3: "List of topics", 4: "Top unread topic" },
  demote_inactive_streams: { 1: "Automatic", 2: "Always", 3: "Never" },
  user_list_style: { 1: "Compact", 2: "With status", 3: "With avatar and status" },
  web_stream_unreads_count_display_policy: { 1: "All channels", 2: "Unmuted channels and topics", 3: "No channels" },
  desktop_icon_count_display: { 1: "All unread messages", 2: "DMs, mentions and followed topics", 3: "DMs and mentions", 4: "None" },
  realm_name_in_email_notifications_policy: { 1: "Automatic", 2: "Always", 3: "Never" },
  automatically_follow_topics_policy: { 1: "Topics I participate in", 2: "Topics I send a message to", 3: "Topics I start", 4: "Never" },
  automatically_unmute_topics_in_muted_streams_policy: { 1: "Topics I participate in", 2: "Topics I send a message to", 3: "Topics I start", 4: "Never" },
};
const choiceLabel = (name: string, v: string | number) => CHOICES[name]?.[v] ?? String(v).replace(/_/g, " ");

/** Settings naming a channel by id (-1: none). */
const isChannelSetting = (name: string) => /_(stream|channel)_id$/.test(name);
/** Durations the API counts in seconds, shown in minutes. */
const inMinutes = (name: string) => name.endsWith("_limit_seconds");

function Field({ name, label, hint, children }: { name: string; label?: string; hint?: string; children: ComponentChildren }) {
  return (
    <div class="admin-field" data-setting={name}>
      <label>
        <span class="admin-label">{label ?? labelOf(name)}</span>
        {children}
      </label>
      {hint && <span class="hint">{hint}</span>}
    </div>
  );
}

/** A text or number input that saves on Enter or on blur, when its value changed. */
export function CommitInput({
  value,
  onCommit,
  type = "text",
  multiline,
  ...rest
}: {
  value: string;
  onCommit: (v: string) => void;
  type?: "text" | "number";
  multiline?: boolean;
  [k: string]: unknown;
}) {
  const draft = useSignal<string | null>(null);
  const shown = draft.value ?? value;
  const commit = () => {
    if (draft.value !== null && draft.value !== value) onCommit(draft.value);
    draft.value = null;
  };
  const common: Record<string, any> = {
    ...rest,
    type: multiline ? undefined : type,
    value: shown,
    onInput: (e: any) => (draft.value = e.currentTarget.value),
    onBlur: commit,
    onKeyDown: (e: KeyboardEvent) => {
      if (e.key === "Enter" && !(multiline && e.shiftKey)) {
        e.preventDefault();
        commit();
      } else if (e.key === "Escape" && draft.value !== null) {
        e.stopPropagation();
        draft.value = null;
      }
    },
  };
  return multiline ? <textarea rows={3} {...common} /> : <input {...common} />;
}

/**
 * One setting's control, generated from its kind in the property table. `save` receives the wire
 * value; group settings get the picker, which sends Zulip's { new, old } change.
 */
export function SettingControl({
  name,
  kind,
  value,
  save,
  disabled,
}: {
  name: string;
  kind: SettingKind;
  value: unknown;
  save: (v: unknown) => void;
  disabled?: boolean;
}) {
  const testid = `admin-${name}`;
  switch (kind.t) {
    case "bool":
      return (
        <label class="check admin-field" data-setting={name}>
          <input type="checkbox" data-testid={testid} disabled={disabled} checked={!!value} onChange={(e) => save(e.currentTarget.checked)} /> {labelOf(name)}
        </label>
      );
    case "group":
      return (
        <Field name={name}>
          <GroupPicker
            value={value as GroupSettingValue}
            config={kind.config}
            disabled={disabled}
            testid={testid}
            label={labelOf(name)}
            onChange={(v) => save({ new: v, old: value })}
          />
        </Field>
      );
    case "str":
      if (kind.values)
        return (
          <Field name={name}>
            <select data-testid={testid} disabled={disabled} value={String(value)} onChange={(e) => save(e.currentTarget.value)}>
              {kind.values.map((v) => (
                <option value={v}>{choiceLabel(name, v)}</option>
              ))}
            </select>
          </Field>
        );
      return (
        <Field name={name}>
          <CommitInput
            data-testid={testid}
            disabled={disabled}
            value={String(value ?? "")}
            multiline={(kind.max ?? 0) > 200}
            maxLength={kind.max}
            onCommit={(v) => save(kind.nullable && v === "" ? "default" : v)}
          />
        </Field>
      );
    case "int": {
      if (kind.values)
        return (
          <Field name={name}>
            <select data-testid={testid} disabled={disabled} value={String(value)} onChange={(e) => save(Number(e.currentTarget.value))}>
              {kind.values.map((v) => (
                <option value={v}>{choiceLabel(name, v)}</option>
              ))}
            </select>
          </Field>
        );
      if (isChannelSetting(name)) return <ChannelSetting name={name} value={value as number} save={save} disabled={disabled} testid={testid} />;
      const special = kind.special ? Object.keys(kind.special)[0] : undefined;
      const unlimited = special !== undefined && (value === null || value === kind.special![special]);
      const factor = inMinutes(name) ? 60 : 1;
      return (
        <Field name={name} label={`${labelOf(name).replace(/ seconds$/, "")}${factor === 60 ? " (minutes)" : ""}`}>
          <div class="row">
            {!unlimited && (
              <CommitInput
                type="number"
                data-testid={testid}
                disabled={disabled}
                min={kind.min !== undefined ? Math.ceil(kind.min / factor) : undefined}
                max={kind.max}
                value={value === null || value === undefined ? "" : String(Math.round((value as number) / factor))}
                onCommit={(v) => v !== "" && save(Math.round(Number(v) * factor))}
              />
            )}
            {special !== undefined && (
              <label class="check">
                <input
                  type="checkbox"
                  disabled={disabled}
                  checked={unlimited}
                  onChange={(e) => save(e.currentTarget.checked ? special : Math.max(kind.min ?? 1, 1) * (factor === 60 ? 600 : 30))}
                />{" "}
                No limit
              </label>
            )}
          </div>
        </Field>
      );
    }
  }
}

function ChannelSetting({
  name,
  value,
  save,
  disabled,
  testid,
}: {
  name: string;
  value: number;
  save: (v: unknown) => void;
  disabled?: boolean;
  testid: string;
}) {
  return (
    <Field name={name}>
      <select data-testid={testid} disabled={disabled} value={String(value ?? -1)} onChange={(e) => save(Number(e.currentTarget.value))}>
        <option value="-1">None</option>
        {allChannels().map((c) => (
          <option value={c.stream_id}>#{c.name}</option>
        ))}
      </select>
    </Field>
  );
}

/** Every channel the store knows (subscribed or not), by name, archived ones left out. */
export function allChannels(): any[] {
  const all = new Map<number, any>([...streams.value].map(([id, s]) => [id, s]));
  for (const [id, s] of subs.value) all.set(id, { ...all.get(id), ...s });
  return [...all.values()].filter((c) => !c.is_archived).sort((a, b) => a.name.localeCompare(b.name));
}

const SYSTEM_NAMES: Record<string, string> = {
  "role:internet": "Everyone on the internet",
  "role:everyone": "Everyone, including guests",
  "role:members": "Members",
  "role:fullmembers": "Full members",
  "role:moderators": "Moderators",
  "role:administrators": "Administrators",
  "role:owners": "Owners",
  "role:nobody": "Nobody",
};
export const groupName = (id: number) => {
  const g = userGroups.value.get(id);
  return g ? (g.is_system_group ? (SYSTEM_NAMES[g.name] ?? g.name) : g.name) : `Group ${id}`;
};

/** The groups a setting accepts as its whole value, system groups first (in their order of reach). */
function allowedGroups(c?: PermissionConfig) {
  const order = Object.keys(SYSTEM_NAMES);
  return [...userGroups.value.values()]
    .filter((g) => !g.deactivated)
    .filter((g) => {
      if (!c) return true;
      if (!g.is_system_group) return !c.requireSystemGroup;
      if (c.allowedSystemGroups) return (c.allowedSystemGroups as readonly string[]).includes(g.name);
      if (g.name === "role:internet") return c.allowInternet;
      if (g.name === "role:everyone") return c.allowEveryone;
      if (g.name === "role:nobody") return c.allowNobody;
      if (g.name === "role:owners") return c.allowOwners;
      return true;
    })
    .sort((a, b) => Number(b.is_system_group) - Number(a.is_system_group) || order.indexOf(a.name) - order.indexOf(b.name) || a.name.localeCompare(b.name));
}

/** A permission's label and its group picker (which names itself to screen readers: the label is only seen). */
export function PermissionField({
  name,
  value,
  config,
  testid,
  onChange,
}: {
  name: string;
  value: GroupSettingValue;
  config?: PermissionConfig;
  testid?: string;
  onChange: (v: GroupSettingValue) => void;
}) {
  return (
    <div class="admin-field">
      <span class="admin-label" aria-hidden="true">
        {labelOf(name)}
      </span>
      <GroupPicker label={labelOf(name)} testid={testid} value={value} config={config} onChange={onChange} />
    </div>
  );
}

/**
 * Zulip's group-setting value: one group (system or user group), or "specific people and groups"
 * (an anonymous collection of users and subgroups), edited as removable chips.
 */
export function GroupPicker({
  value,
  config,
  onChange,
  disabled,
  testid,
  label,
}: {
  value: GroupSettingValue;
  config?: PermissionConfig;
  onChange: (v: GroupSettingValue) => void;
  disabled?: boolean;
  testid?: string;
  label: string;
}) {
  const custom = typeof value === "object" && value !== null;
  const groups = allowedGroups(config);
  const members = custom ? value.direct_members : [];
  const subgroups = custom ? value.direct_subgroups : [];
  const setCustom = (m: number[], g: number[]) => onChange({ direct_members: m, direct_subgroups: g });
  return (
    <div class="group-picker">
      <select
        data-testid={testid}
        aria-label={label}
        disabled={disabled}
        value={custom ? "custom" : String(value)}
        onChange={(e) => {
          const v = e.currentTarget.value;
          if (v === "custom") setCustom([me.value.user_id], []);
          else onChange(Number(v));
        }}
      >
        {groups.map((g) => (
          <option value={g.id}>{groupName(g.id)}</option>
        ))}
        {!config?.requireSystemGroup && <option value="custom">Specific people and groups…</option>}
      </select>
      {custom && (
        <div class="chips" aria-label={`${label}: people and groups`}>
          {members.map((id) => (
            <Chip
              key={`u${id}`}
              label={users.value.get(id)?.full_name ?? `User ${id}`}
              onRemove={
                disabled
                  ? undefined
                  : () =>
                      setCustom(
                        members.filter((x) => x !== id),
                        subgroups,
                      )
              }
            />
          ))}
          {subgroups.map((id) => (
            <Chip
              key={`g${id}`}
              label={groupName(id)}
              onRemove={
                disabled
                  ? undefined
                  : () =>
                      setCustom(
                        members,
                        subgroups.filter((x) => x !== id),
                      )
              }
            />
          ))}
          {!disabled && (
            <AddPerson
              label={`Add to "${label}"`}
              exclude={members}
              groups={groups.filter((g) => !subgroups.includes(g.id))}
              onUser={(id) => setCustom([...members, id], subgroups)}
              onGroup={(id) => setCustom(members, [...subgroups, id])}
            />
          )}
        </div>
      )}
    </div>
  );
}

function Chip({ label, onRemove }: { label: string; onRemove?: () => void }) {
  return (
    <span class="chip">
      {label}
      {onRemove && (
        <button type="button" class="chip-remove" aria-label={`Remove ${label}`} onClick={onRemove}>
          ×
        </button>
      )}
    </span>
  );
}

/** Active people (no bots), by name. */
export const activePeople = () => [...users.value.values()].filter((u) => u.is_active && !u.is_bot).sort((a, b) => a.full_name.localeCompare(b.full_name));

/** A select that adds one person (or group, where offered) to a list. */
export function AddPerson({
  label,
  exclude,
  onUser,
  groups,
  onGroup,
  testid,
}: {
  label: string;
  exclude: number[];
  onUser: (id: number) => void;
  groups?: { id: number }[];
  onGroup?: (id: number) => void;
  testid?: string;
}) {
  const people = activePeople().filter((u) => !exclude.includes(u.user_id));
  return (
    <select
      aria-label={label}
      data-testid={testid}
      value=""
      onChange={(e) => {
        const v = e.currentTarget.value;
        e.currentTarget.value = "";
        if (v.startsWith("u")) onUser(Number(v.slice(1)));
        else if (v.startsWith("g")) onGroup?.(Number(v.slice(1)));
      }}
    >
      <option value="">+ Add…</option>
      <optgroup label="People">
        {people.map((u) => (
          <option value={`u${u.user_id}`}>{u.full_name}</option>
        ))}
      </optgroup>
      {groups && groups.length > 0 && (
        <optgroup label="Groups">
          {groups.map((g) => (
            <option value={`g${g.id}`}>{groupName(g.id)}</option>
          ))}
        </optgroup>
      )}
    </select>
  );
}

/** A list the administrator reorders with up / down buttons; `save` gets the new order of ids. */
export function Reorderable<T extends { id: number }>({
  items,
  save,
  render,
  label,
}: {
  items: T[];
  save: (ids: number[]) => void;
  render: (x: T) => ComponentChildren;
  label: (x: T) => string;
}) {
  const move = (i: number, d: number) => {
    const ids = items.map((x) => x.id);
    [ids[i], ids[i + d]] = [ids[i + d]!, ids[i]!];
    save(ids);
  };
  return (
    <ul class="admin-list">
      {items.map((x, i) => (
        <li key={x.id}>
          <span class="reorder">
            <button type="button" class="icon-btn small" aria-label={`Move ${label(x)} up`} disabled={i === 0} onClick={() => move(i, -1)}>
              ↑
            </button>
            <button type="button" class="icon-btn small" aria-label={`Move ${label(x)} down`} disabled={i === items.length - 1} onClick={() => move(i, 1)}>
              ↓
            </button>
          </span>
          {render(x)}
        </li>
      ))}
    </ul>
  );
}

/** A titled part of a page. */
export function Part({ title, id, children, note }: { title: string; id: string; children: ComponentChildren; note?: string }) {
  return (
    <section class="admin-part" aria-labelledby={`admin-${id}`}>
      <h3 id={`admin-${id}`}>{title}</h3>
      {note && <p class="hint">{note}</p>}
      {children}
    </section>
  );
}

/** The wire value → a value a `<form>` posts: objects and arrays as JSON (the client encodes them). */
export const formValue = (form: HTMLFormElement, name: string) => (form.elements.namedItem(name) as HTMLInputElement | null)?.value ?? "";

/** Checkbox lists of channels or groups (invitations, new groups): the checked ids. */
export function checkedIds(form: HTMLFormElement, name: string): number[] {
  return [...form.querySelectorAll<HTMLInputElement>(`input[name="${name}"]:checked`)].map((i) => Number(i.value));
}

export const patchRealm = (name: string, v: unknown) => act(() => api.patch("realm", { [name]: v }));
