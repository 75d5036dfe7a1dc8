// People: users (role, last activity, deactivate / reactivate, add), bots (the three kinds, their
// keys) and invitations (reusable links and emails, listed and revoked).
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { api } from "../../api/client";
import type { User } from "../../api/types";
import { Avatar } from "../../ui/Avatar";
import { ago } from "../../ui/format";
import { roleName, ROLES } from "../../ui/roles";
import { profileCard } from "../ProfileCard";
import { say } from "../../ui/toast";
import { bots, defaultChannels, invitesVersion } from "../../store/admin";
import { me, presence, presenceOf, userGroups, userName, users } from "../../store/state";
import { can } from "../../store/permissions";
import { act, activePeople, allChannels, checkedIds, CommitInput, formValue, groupName, Part } from "./fields";
import {
  BOT_TYPES,
  isAdmin,
  isOwner,
  mayAddSubscribers,
  mayAdministerBot,
  mayAdministerUsers,
  mayControlInvite,
  mayCreateBot,
  mayInviteAs,
  mayUpdateGroup,
} from "./rules";

function lastActive(id: number): string {
  const state = presenceOf(id);
  if (state === "active") return "Active now";
  const p = presence.value.get(id);
  const ts = p ? Math.max(p.active_timestamp, p.idle_timestamp) : 0;
  return ts ? `Last active ${ago(ts)}` : "Never active";
}

export function Users() {
  const filter = useSignal("");
  const q = filter.value.toLowerCase();
  const list = [...users.value.values()]
    .filter((u) => !u.is_bot && (u.full_name.toLowerCase().includes(q) || u.email.toLowerCase().includes(q)))
    .sort((a, b) => Number(b.is_active) - Number(a.is_active) || a.full_name.localeCompare(b.full_name));
  return (
    <>
      <Part title="Users" id="users">
        <input
          class="admin-filter"
          placeholder="Filter by name or email"
          aria-label="Filter users"
          value={filter.value}
          onInput={(e) => (filter.value = e.currentTarget.value)}
        />
        <ul class="admin-list" data-testid="admin-users">
          {list.map((u) => (
            <UserRow key={u.user_id} u={u} />
          ))}
        </ul>
      </Part>
      <AddUser />
    </>
  );
}

function UserRow({ u }: { u: User }) {
  const self = u.user_id === me.value.user_id;
  // Only owners grant or take away ownership (the server refuses it to others anyway).
  const roleLocked = self || (!isOwner() && u.role === 100);
  return (
    <li class={u.is_active ? undefined : "inactive"} data-testid={`admin-user-${u.email}`}>
      <Avatar id={u.user_id} size={32} />
      <div class="grow">
        <div class="row">
          <CommitInput
            class="name-input"
            aria-label={`Name of ${u.full_name}`}
            value={u.full_name}
            disabled={!u.is_active}
            onCommit={(v) => act(() => api.patch(`users/${u.user_id}`, { full_name: v }), "Name changed")}
          />
          {!u.is_active && <span class="tag">Deactivated</span>}
          <button class="btn small" data-testid="user-profile" onClick={() => (profileCard.value = u.user_id)}>
            Profile
          </button>
        </div>
        <div class="hint">
          {u.email}
          {u.is_active && ` · ${lastActive(u.user_id)}`}
        </div>
      </div>
      <select
        aria-label={`Role of ${u.full_name}`}
        data-testid="user-role"
        disabled={roleLocked || !u.is_active}
        value={u.role}
        onChange={(e) => act(() => api.patch(`users/${u.user_id}`, { role: Number(e.currentTarget.value) }), "Role changed")}
      >
        {ROLES.filter(([r]) => isOwner() || r !== 100 || u.role === 100).map(([r, label]) => (
          <option value={r}>{label}</option>
        ))}
      </select>
      {!self &&
        (u.is_active ? (
          <button
            class="btn small danger"
            data-testid="user-deactivate"
            onClick={() =>
              confirm(`Deactivate ${u.full_name}? They are signed out everywhere and can no longer sign in.`) &&
              act(() => api.delete(`users/${u.user_id}`), `${u.full_name} deactivated`)
            }
          >
            Deactivate
          </button>
        ) : (
          <button
            class="btn small"
            data-testid="user-reactivate"
            onClick={() => act(() => api.post(`users/${u.user_id}/reactivate`), `${u.full_name} reactivated`)}
          >
            Reactivate
          </button>
        ))}
    </li>
  );
}

/** An account made by an administrator, with a password to hand over (POST /users). */
function AddUser() {
  return (
    <Part title="Add a user" id="add-user" note="Or send an invitation, which lets people choose their own password.">
      <form
        class="form admin-form"
        onSubmit={(e) => {
          e.preventDefault();
          const f = e.currentTarget;
          act(
            () => api.post("users", { email: formValue(f, "email"), full_name: formValue(f, "full_name"), password: formValue(f, "password") }),
            "User added",
          ).then((ok) => ok && f.reset());
        }}
      >
        <label>
          Email
          <input name="email" type="email" required autoComplete="off" />
        </label>
        <label>
          Name
          <input name="full_name" required />
        </label>
        <label>
          Password
          <input name="password" type="password" required minLength={8} autoComplete="new-password" />
        </label>
        <div class="row end">
          <button class="btn primary">Add user</button>
        </div>
      </form>
    </Part>
  );
}

export function Bots() {
  const list = [...bots.value.values()].sort((a, b) => Number(b.is_active) - Number(a.is_active) || a.full_name.localeCompare(b.full_name));
  return (
    <>
      <Part title="Bots" id="bots">
        <ul class="admin-list" data-testid="admin-bots">
          {list.map((b) => (
            <li key={b.user_id} class={b.is_active ? undefined : "inactive"} data-testid={`admin-bot-${b.email}`}>
              <div class="grow">
                <div>
                  {b.full_name} <span class="tag">{BOT_TYPES.find(([t]) => t === b.bot_type)?.[1] ?? "Bot"}</span>
                  {!b.is_active && <span class="tag">Deactivated</span>}
                </div>
                <div class="hint">{b.email}</div>
                {b.is_active && mayAdministerBot(b) && (
                  <label class="row hint">
                    Owner
                    <select
                      value={String(b.owner_id ?? "")}
                      onChange={(e) => act(() => api.patch(`bots/${b.user_id}`, { bot_owner_id: Number(e.currentTarget.value) }), "Owner changed")}
                    >
                      {b.owner_id === null && <option value="">None</option>}
                      {activePeople().map((u) => (
                        <option value={u.user_id}>{u.full_name}</option>
                      ))}
                    </select>
                  </label>
                )}
                {b.bot_type === 3 && mayAdministerBot(b) && <BotUrl id={b.user_id} url={b.services?.[0]?.base_url ?? ""} />}
                {b.is_active && b.api_key && mayAdministerBot(b) && <BotKey id={b.user_id} apiKey={b.api_key} />}
              </div>
              {b.is_active
                ? mayAdministerBot(b) && (
                    <button
                      class="btn small danger"
                      data-testid="bot-deactivate"
                      onClick={() => act(() => api.delete(`bots/${b.user_id}`), `${b.full_name} deactivated`)}
                    >
                      Deactivate
                    </button>
                  )
                : mayAdministerUsers() && (
                    <button class="btn small" onClick={() => act(() => api.post(`users/${b.user_id}/reactivate`), `${b.full_name} reactivated`)}>
                      Reactivate
                    </button>
                  )}
            </li>
          ))}
          {!list.length && <li class="empty-note">No bots yet.</li>}
        </ul>
      </Part>
      <CreateBot />
    </>
  );
}

function BotKey({ id, apiKey }: { id: number; apiKey: string }) {
  const shown = useSignal(false);
  return (
    <div class="row wrap bot-key">
      {shown.value ? (
        <input readOnly class="mono" aria-label="API key" data-testid="bot-key" value={apiKey} onFocus={(e) => e.currentTarget.select()} />
      ) : (
        <input readOnly class="mono" aria-label="API key (hidden)" data-testid="bot-key" type="password" value={apiKey} />
      )}
      <button class="btn small" onClick={() => (shown.value = !shown.value)}>
        {shown.value ? "Hide" : "Show"}
      </button>
      <button
        class="btn small"
        data-testid="bot-copy-key"
        onClick={() =>
          navigator.clipboard.writeText(apiKey).then(
            () => say("API key copied"),
            () => say("Copying is not allowed here: select the key and copy it", true),
          )
        }
      >
        Copy key
      </button>
      <button
        class="btn small"
        data-testid="bot-regenerate-key"
        onClick={() =>
          confirm("Make a new API key? The old one stops working at once.") && act(() => api.post(`bots/${id}/api_key/regenerate`), "New API key made")
        }
      >
        Regenerate key
      </button>
    </div>
  );
}

function BotUrl({ id, url }: { id: number; url: string }) {
  return (
    <form
      class="row wrap"
      onSubmit={(e) => {
        e.preventDefault();
        act(() => api.patch(`bots/${id}`, { service_payload_url: JSON.stringify(formValue(e.currentTarget, "url")) }));
      }}
    >
      <input name="url" type="url" aria-label="Outgoing webhook URL" class="grow" defaultValue={url} />
      <button class="btn small">Save URL</button>
    </form>
  );
}

function CreateBot() {
  // Only the kinds the realm's bot permissions allow this person to create.
  const kinds = BOT_TYPES.filter(([t]) => mayCreateBot(t));
  const type = useSignal(kinds[0]?.[0] ?? 1);
  if (!kinds.length) return null;
  return (
    <Part title="Create a bot" id="create-bot">
      <form
        class="form admin-form"
        onSubmit={(e) => {
          e.preventDefault();
          const f = e.currentTarget;
          const params: Record<string, unknown> = { full_name: formValue(f, "full_name"), short_name: formValue(f, "short_name"), bot_type: type.value };
          if (type.value === 3) {
            params.payload_url = JSON.stringify(formValue(f, "payload_url"));
            params.interface_type = Number(formValue(f, "interface_type"));
          }
          act(() => api.post("bots", params), "Bot created: its API key is in the list above").then((ok) => ok && f.reset());
        }}
      >
        <label>
          Kind
          <select data-testid="bot-type" value={type.value} onChange={(e) => (type.value = Number(e.currentTarget.value))}>
            {kinds.map(([t, label]) => (
              <option value={t}>{label}</option>
            ))}
          </select>
        </label>
        <label>
          Name
          <input name="full_name" required data-testid="bot-name" />
        </label>
        <label>
          Username (the part of its email before "-bot@")
          <input name="short_name" required pattern="[A-Za-z0-9_.\-]+" data-testid="bot-short-name" />
        </label>
        {type.value === 3 && (
          <>
            <label>
              URL the bot's messages are sent to
              <input name="payload_url" type="url" required data-testid="bot-url" />
            </label>
            <label>
              Format
              <select name="interface_type">
                <option value="1">Zulip</option>
                <option value="2">Slack compatible</option>
              </select>
            </label>
          </>
        )}
        <div class="row end">
          <button class="btn primary" data-testid="bot-create">
            Create bot
          </button>
        </div>
      </form>
    </Part>
  );
}

interface Invite {
  id: number;
  invited_by_user_id: number;
  invited: number;
  expiry_date: number | null;
  invited_as: number;
  email?: string;
  is_multiuse: boolean;
  link_url?: string;
}

const EXPIRY: [string, string][] = [
  ["1440", "1 day"],
  ["10080", "7 days"],
  ["43200", "30 days"],
  ["null", "Never"],
];

export function Invitations() {
  const list = useSignal<Invite[] | null>(null);
  const link = useSignal<string | null>(null);
  const version = invitesVersion.value;
  useEffect(() => {
    api.get("invites").then(
      (r) => (list.value = r.invites),
      () => (list.value = []),
    );
  }, [version]);
  return (
    <>
      <Part title="Invite people" id="invite">
        <InviteForm onLink={(l) => (link.value = l)} />
        {link.value && (
          <div class="row wrap invite-result" role="status">
            <input
              class="grow mono"
              readOnly
              aria-label="Invitation link"
              data-testid="admin-invite-link"
              value={link.value}
              onFocus={(e) => e.currentTarget.select()}
            />
            <button
              class="btn small"
              onClick={() =>
                navigator.clipboard.writeText(link.value!).then(
                  () => say("Link copied"),
                  () => say("Select the link and copy it", true),
                )
              }
            >
              Copy
            </button>
          </div>
        )}
      </Part>
      <Part title="Invitations not yet used" id="invites">
        <ul class="admin-list" data-testid="admin-invites">
          {(list.value ?? []).map((i) => (
            <li key={`${i.is_multiuse}-${i.id}`}>
              <div class="grow">
                <div>{i.is_multiuse ? "Reusable link" : i.email}</div>
                <div class="hint">
                  As {roleName(i.invited_as)} · by {userName(i.invited_by_user_id)} ·{" "}
                  {i.expiry_date ? `expires ${new Date(i.expiry_date * 1000).toLocaleDateString()}` : "never expires"}
                </div>
                {i.link_url && (
                  <input class="mono admin-link" readOnly aria-label="Invitation link" value={i.link_url} onFocus={(e) => e.currentTarget.select()} />
                )}
              </div>
              {!i.is_multiuse && mayControlInvite(i) && (
                <button class="btn small" onClick={() => act(() => api.post(`invites/${i.id}/resend`), "Invitation sent again")}>
                  Resend
                </button>
              )}
              {mayControlInvite(i) && (
                <button
                  class="btn small danger"
                  data-testid="invite-revoke"
                  onClick={() => act(() => api.delete(i.is_multiuse ? `invites/multiuse/${i.id}` : `invites/${i.id}`), "Invitation revoked")}
                >
                  Revoke
                </button>
              )}
            </li>
          ))}
          {list.value?.length === 0 && <li class="empty-note">No open invitations.</li>}
        </ul>
      </Part>
    </>
  );
}

/** One form for both kinds: emails get a message each; without emails, a reusable link. */
function InviteForm({ onLink }: { onLink: (link: string) => void }) {
  // Links and emails are separate permissions, and each has its own rule for the roles offered.
  const mayLink = can("create_multiuse_invite_group");
  const mayEmail = can("can_invite_users_group");
  const byEmail = useSignal(!mayLink);
  const roles = ROLES.filter(([r]) => mayInviteAs(r, byEmail.value));
  const groups = [...userGroups.value.values()].filter((g) => !g.deactivated && mayUpdateGroup(g, ["can_add_members_group"]));
  // Default channels need no right of one's own: newcomers join them anyway.
  const channels = allChannels().filter((c) => defaultChannels.value.includes(c.stream_id) || mayAddSubscribers(c));
  return (
    <form
      class="form admin-form"
      data-testid="invite-form"
      onSubmit={(e) => {
        e.preventDefault();
        const f = e.currentTarget;
        const params = {
          invite_expires_in_minutes: formValue(f, "expiry"),
          invite_as: Number(formValue(f, "invite_as")),
          stream_ids: checkedIds(f, "channel"),
          group_ids: checkedIds(f, "group"),
        };
        if (byEmail.value) act(() => api.post("invites", { ...params, invitee_emails: formValue(f, "emails") }), "Invitations sent");
        else act(() => api.post("invites/multiuse", params).then((r) => onLink(r.invite_link)), "Link created");
      }}
    >
      <fieldset class="row wrap plain-fieldset">
        <legend class="sr-only">Kind of invitation</legend>
        {mayLink && (
          <label class="check">
            <input type="radio" name="kind" checked={!byEmail.value} onChange={() => (byEmail.value = false)} data-testid="invite-kind-link" /> A link anyone
            can use
          </label>
        )}
        {mayEmail && (
          <label class="check">
            <input type="radio" name="kind" checked={byEmail.value} onChange={() => (byEmail.value = true)} data-testid="invite-kind-email" /> Emails
          </label>
        )}
      </fieldset>
      {byEmail.value && (
        <label>
          Email addresses (comma or line separated)
          <textarea name="emails" required rows={2} data-testid="invite-emails" />
        </label>
      )}
      <div class="row wrap">
        <label>
          Expires after
          <select name="expiry" defaultValue="10080" data-testid="invite-expiry">
            {EXPIRY.map(([v, label]) => (
              <option value={v}>{label}</option>
            ))}
          </select>
        </label>
        <label>
          Joins as
          <select name="invite_as" defaultValue="400" data-testid="invite-role">
            {roles.map(([r, label]) => (
              <option value={r}>{label}</option>
            ))}
          </select>
        </label>
      </div>
      <fieldset class="plain-fieldset">
        <legend>Channels they join</legend>
        <div class="check-grid">
          {channels.map((c) => (
            <label class="check" key={c.stream_id}>
              <input type="checkbox" name="channel" value={c.stream_id} defaultChecked={defaultChannels.value.includes(c.stream_id)} /> #{c.name}
            </label>
          ))}
        </div>
      </fieldset>
      {groups.length > 0 && (
        <fieldset class="plain-fieldset">
          <legend>Groups they join</legend>
          <div class="check-grid">
            {groups.map((g) => (
              <label class="check" key={g.id}>
                <input type="checkbox" name="group" value={g.id} /> {groupName(g.id)}
              </label>
            ))}
          </div>
        </fieldset>
      )}
      <div class="row end">
        <button class="btn primary" data-testid="invite-submit">
          {byEmail.value ? "Send invitations" : "Create link"}
        </button>
      </div>
    </form>
  );
}
