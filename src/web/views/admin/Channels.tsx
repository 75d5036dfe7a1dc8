// Channels: create (with its permissions), edit every property (name, description, privacy, history,
// retention, topics policy, folder, default for new users, each group setting), archive and
// unarchive; channel folders with their order.
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { api } from "../../api/client";
import { CHANNEL_PERMISSIONS, CHANNEL_PERMISSION_NAMES, TOPICS_POLICIES } from "../../../domain/channels";
import type { GroupSettingValue } from "../../../domain/group-settings";
import { channelFolders, defaultChannels } from "../../store/admin";
import { me, streams, userGroups, userName } from "../../store/state";
import { act, AddPerson, allChannels, CommitInput, formValue, PermissionField, Part, Reorderable } from "./fields";

/** The permissions PATCH /streams changes (can_create_topic_group is set at creation only). */
const EDITABLE_PERMISSIONS = CHANNEL_PERMISSION_NAMES.filter((n) => n !== "can_create_topic_group");

type Privacy = "public" | "web-public" | "private-shared" | "private";
const PRIVACY: [Privacy, string][] = [
  ["public", "Public: members can find and join it"],
  ["web-public", "Web-public: anyone on the internet can read it"],
  ["private-shared", "Private, new subscribers see its whole history"],
  ["private", "Private, new subscribers see only new messages"],
];
const privacyOf = (c: any): Privacy =>
  c.is_web_public ? "web-public" : !c.invite_only ? "public" : c.history_public_to_subscribers ? "private-shared" : "private";
const privacyParams = (p: Privacy) => ({
  is_private: p.startsWith("private"),
  is_web_public: p === "web-public",
  history_public_to_subscribers: p !== "private",
});
const TOPICS_LABELS: Record<string, string> = {
  inherit: "As the organization says",
  allow_empty_topic: "Messages may have no topic",
  disable_empty_topic: "Every message needs a topic",
  empty_topic_only: "No topics: one conversation",
};

/** The group a "system group" default names, as a group id of this realm. */
const systemGroupId = (name: string) => [...userGroups.value.values()].find((g) => g.is_system_group && g.name === name)?.id;

/** `item`: a channel's id, whose editor opens at once (the channel header's "Channel settings"). */
export function Channels({ item }: { item?: string }) {
  const openId = useSignal<number | null>(null);
  useEffect(() => void (item && (openId.value = Number(item))), [item]);
  const archived = useSignal<any[]>([]);
  const list = allChannels();
  const streamCount = streams.value.size;
  useEffect(() => {
    api.get("streams", { include_all: true, exclude_archived: false }).then(
      (r) => (archived.value = r.streams.filter((s: any) => s.is_archived)),
      () => {},
    );
  }, [streamCount]);
  const folderName = (id: number | null) => channelFolders.value.find((f) => f.id === id)?.name;
  return (
    <>
      <Part title="Channels" id="channels">
        <ul class="admin-list" data-testid="admin-channels">
          {list.map((c) => (
            <li key={c.stream_id} data-testid={`admin-channel-${c.name}`} class="wrap">
              <div class="grow">
                <div>
                  {c.invite_only ? "🔒 " : "#"}
                  {c.name}
                  {defaultChannels.value.includes(c.stream_id) && <span class="tag">Default</span>}
                  {c.folder_id ? <span class="tag">{folderName(c.folder_id)}</span> : null}
                </div>
                <div class="hint">{c.description || "No description"}</div>
              </div>
              <button
                class="btn small"
                aria-expanded={openId.value === c.stream_id}
                data-testid="channel-edit"
                onClick={() => (openId.value = openId.value === c.stream_id ? null : c.stream_id)}
              >
                {openId.value === c.stream_id ? "Close" : "Edit"}
              </button>
              {openId.value === c.stream_id && <ChannelEditor key={c.stream_id} c={c} />}
            </li>
          ))}
        </ul>
      </Part>
      {archived.value.length > 0 && (
        <Part title="Archived channels" id="archived">
          <ul class="admin-list">
            {archived.value.map((c) => (
              <li key={c.stream_id}>
                <span class="grow">#{c.name}</span>
                <button class="btn small" onClick={() => act(() => api.patch(`streams/${c.stream_id}`, { is_archived: false }), `#${c.name} unarchived`)}>
                  Unarchive
                </button>
              </li>
            ))}
          </ul>
        </Part>
      )}
      <CreateChannel />
      <Folders />
    </>
  );
}

function ChannelEditor({ c }: { c: any }) {
  const patch = (params: Record<string, unknown>, done?: string) => act(() => api.patch(`streams/${c.stream_id}`, params), done);
  const retention = c.message_retention_days;
  const isDefault = defaultChannels.value.includes(c.stream_id);
  return (
    <div class="form admin-form channel-editor" data-testid="channel-editor">
      <label class="admin-field">
        <span class="admin-label">Name</span>
        <CommitInput value={c.name} required maxLength={60} data-testid="channel-name" onCommit={(v) => patch({ new_name: v })} />
      </label>
      <label class="admin-field">
        <span class="admin-label">Description</span>
        <CommitInput value={c.description ?? ""} data-testid="channel-description" onCommit={(v) => patch({ description: v })} />
      </label>
      <label class="admin-field">
        <span class="admin-label">Who can see it</span>
        <select data-testid="channel-privacy" value={privacyOf(c)} onChange={(e) => patch(privacyParams(e.currentTarget.value as Privacy))}>
          {PRIVACY.map(([v, label]) => (
            <option value={v}>{label}</option>
          ))}
        </select>
      </label>
      <label class="check">
        <input
          type="checkbox"
          checked={isDefault}
          onChange={(e) => act(() => (e.currentTarget.checked ? api.post : api.delete)("default_streams", { stream_id: c.stream_id }))}
        />{" "}
        New users join it (default channel)
      </label>
      <label class="admin-field">
        <span class="admin-label">Folder</span>
        <select value={String(c.folder_id ?? "")} onChange={(e) => patch({ folder_id: e.currentTarget.value ? Number(e.currentTarget.value) : null })}>
          <option value="">No folder</option>
          {channelFolders.value
            .filter((f) => !f.is_archived)
            .map((f) => (
              <option value={f.id}>{f.name}</option>
            ))}
        </select>
      </label>
      <label class="admin-field">
        <span class="admin-label">Topics</span>
        <select value={c.topics_policy ?? "inherit"} onChange={(e) => patch({ topics_policy: e.currentTarget.value })}>
          {TOPICS_POLICIES.map((t) => (
            <option value={t}>{TOPICS_LABELS[t]}</option>
          ))}
        </select>
      </label>
      <div class="admin-field">
        <span class="admin-label">Delete messages after</span>
        <div class="row wrap">
          <select
            aria-label="Message retention"
            value={retention === null || retention === undefined ? "realm_default" : retention === -1 ? "unlimited" : "days"}
            onChange={(e) => patch({ message_retention_days: e.currentTarget.value === "days" ? 365 : e.currentTarget.value })}
          >
            <option value="realm_default">The organization's setting</option>
            <option value="unlimited">Never: keep forever</option>
            <option value="days">A number of days</option>
          </select>
          {typeof retention === "number" && retention > 0 && (
            <CommitInput type="number" min={1} aria-label="Days" value={String(retention)} onCommit={(v) => patch({ message_retention_days: Number(v) })} />
          )}
        </div>
      </div>
      <Subscribers c={c} />
      {EDITABLE_PERMISSIONS.map((n) => (
        <PermissionField
          key={n}
          name={n}
          testid={`channel-${n}`}
          value={c[n] as GroupSettingValue}
          config={CHANNEL_PERMISSIONS[n]}
          onChange={(v) => patch({ [n]: { new: v, old: c[n] } })}
        />
      ))}
      <div class="row end">
        <button
          class="btn danger"
          data-testid="channel-archive"
          onClick={() =>
            confirm(`Archive #${c.name}? No one can send to it any more; it can be unarchived.`) &&
            act(() => api.delete(`streams/${c.stream_id}`), `#${c.name} archived`)
          }
        >
          Archive channel
        </button>
      </div>
    </div>
  );
}

/** Who is subscribed, added and removed by an administrator (the server tells each person). */
function Subscribers({ c }: { c: any }) {
  const ids = useSignal<number[] | null>(null);
  const load = () =>
    api.get(`streams/${c.stream_id}/members`).then(
      (r) => (ids.value = r.subscribers),
      () => (ids.value = []),
    );
  useEffect(() => void load(), [c.stream_id]);
  const change = (add: boolean, id: number) =>
    act(
      () =>
        add
          ? api.post("users/me/subscriptions", { subscriptions: [{ name: c.name }], principals: [id] })
          : api.delete("users/me/subscriptions", { subscriptions: [c.name], principals: [id] }),
      add ? "Subscribed" : "Unsubscribed",
    ).then(load);
  return (
    <div class="admin-field">
      <span class="admin-label">Subscribers</span>
      <ul class="chips" aria-label="Subscribers">
        {(ids.value ?? []).map((id) => (
          <li class="chip" key={id}>
            {userName(id)}
            <button type="button" class="chip-remove" aria-label={`Unsubscribe ${userName(id)}`} onClick={() => change(false, id)}>
              ×
            </button>
          </li>
        ))}
        <li>
          <AddPerson label="Subscribe someone" exclude={ids.value ?? []} onUser={(id) => change(true, id)} />
        </li>
      </ul>
    </div>
  );
}

function CreateChannel() {
  const perms = useSignal<Record<string, GroupSettingValue>>({});
  const privacy = useSignal<Privacy>("public");
  // A permission's shown value before the administrator picks one: its default system group (or you).
  const valueOf = (n: (typeof CHANNEL_PERMISSION_NAMES)[number]): GroupSettingValue => {
    if (perms.value[n] !== undefined) return perms.value[n]!;
    const d = CHANNEL_PERMISSIONS[n].default;
    return d === "creator" ? { direct_members: [me.value.user_id], direct_subgroups: [] } : (systemGroupId(d) ?? 0);
  };
  return (
    <Part title="Create a channel" id="create-channel">
      <form
        class="form admin-form"
        onSubmit={(e) => {
          e.preventDefault();
          const f = e.currentTarget;
          const { is_private, ...rest } = privacyParams(privacy.value);
          act(
            () =>
              api.post("channels/create", {
                name: formValue(f, "name"),
                description: formValue(f, "description"),
                subscribers: [me.value.user_id],
                invite_only: is_private,
                ...rest,
                is_default_stream: (f.elements.namedItem("is_default") as HTMLInputElement).checked,
                folder_id: formValue(f, "folder") ? Number(formValue(f, "folder")) : null,
                ...perms.value,
              }),
            "Channel created",
          ).then((ok) => {
            if (!ok) return;
            f.reset();
            perms.value = {};
            privacy.value = "public";
          });
        }}
      >
        <label>
          Name
          <input name="name" required maxLength={60} data-testid="admin-new-channel-name" />
        </label>
        <label>
          Description
          <input name="description" />
        </label>
        <label>
          Who can see it
          <select value={privacy.value} onChange={(e) => (privacy.value = e.currentTarget.value as Privacy)}>
            {PRIVACY.map(([v, label]) => (
              <option value={v}>{label}</option>
            ))}
          </select>
        </label>
        <label>
          Folder
          <select name="folder">
            <option value="">No folder</option>
            {channelFolders.value
              .filter((x) => !x.is_archived)
              .map((x) => (
                <option value={x.id}>{x.name}</option>
              ))}
          </select>
        </label>
        <label class="check">
          <input type="checkbox" name="is_default" /> New users join it (default channel)
        </label>
        <fieldset class="plain-fieldset">
          <legend>Permissions</legend>
          {CHANNEL_PERMISSION_NAMES.map((n) => (
            <PermissionField
              key={n}
              name={n}
              testid={`new-channel-${n}`}
              value={valueOf(n)}
              config={CHANNEL_PERMISSIONS[n]}
              onChange={(v) => (perms.value = { ...perms.value, [n]: v })}
            />
          ))}
        </fieldset>
        <div class="row end">
          <button class="btn primary" data-testid="admin-new-channel-submit">
            Create channel
          </button>
        </div>
      </form>
    </Part>
  );
}

function Folders() {
  const folders = [...channelFolders.value].sort((a, b) => a.order - b.order);
  return (
    <Part title="Channel folders" id="folders" note="Folders group channels in everyone's sidebar, in this order.">
      <Reorderable
        items={folders}
        label={(f) => f.name}
        save={(order) => act(() => api.patch("channel_folders", { order }), "Order saved")}
        render={(f) => (
          <>
            <div class="grow form">
              <CommitInput aria-label="Folder name" value={f.name} onCommit={(v) => act(() => api.patch(`channel_folders/${f.id}`, { name: v }))} />
              <CommitInput
                aria-label="Folder description"
                placeholder="Description"
                value={f.description}
                onCommit={(v) => act(() => api.patch(`channel_folders/${f.id}`, { description: v }))}
              />
            </div>
            <button
              class="btn small"
              onClick={() =>
                act(() => api.patch(`channel_folders/${f.id}`, { is_archived: !f.is_archived }), f.is_archived ? "Folder restored" : "Folder archived")
              }
            >
              {f.is_archived ? "Unarchive" : "Archive"}
            </button>
          </>
        )}
      />
      <form
        class="row wrap"
        onSubmit={(e) => {
          e.preventDefault();
          const f = e.currentTarget;
          act(() => api.post("channel_folders/create", { name: formValue(f, "name"), description: formValue(f, "description") }), "Folder created").then(
            (ok) => ok && f.reset(),
          );
        }}
      >
        <input name="name" required aria-label="New folder name" placeholder="Folder name" />
        <input name="description" aria-label="New folder description" placeholder="Description" />
        <button class="btn">Create folder</button>
      </form>
    </Part>
  );
}
