// Organization settings, generated from the server's own property tables (REALM_SETTINGS for PATCH
// /realm, USER_SETTINGS for the defaults of new users): every setting the API exposes has a control,
// on one of three pages; a setting added to the table shows up here by itself (on "permissions").
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { api } from "../../api/client";
import { REALM_SETTINGS, REALM_SETTING_NAMES, type RealmSettingName } from "../../../domain/realm-settings";
import { PATCHABLE_DEFAULT_NAMES, USER_SETTINGS } from "../../../domain/user-settings";
import { realmDomains, realmExports, userDefaults } from "../../store/admin";
import { realm, userName } from "../../store/state";
import { act, Part, patchRealm, SettingControl } from "./fields";
import { isOwner } from "./rules";

const PROFILE: RealmSettingName[] = [
  "name",
  "description",
  "org_type",
  "default_language",
  "default_code_block_language",
  "new_stream_announcements_stream_id",
  "signup_announcements_stream_id",
  "zulip_update_announcements_stream_id",
  "moderation_request_channel_id",
  "send_welcome_emails",
  "welcome_message_custom_text",
  "digest_emails_enabled",
  "digest_weekday",
  "want_advertise_in_communities_directory",
];
const MESSAGES: RealmSettingName[] = [
  "allow_message_editing",
  "message_content_edit_limit_seconds",
  "message_content_delete_limit_seconds",
  "move_messages_within_stream_limit_seconds",
  "move_messages_between_streams_limit_seconds",
  "message_edit_history_visibility_policy",
  "message_retention_days",
  "topics_policy",
  "enable_read_receipts",
  "inline_image_preview",
  "inline_url_embed_preview",
  "giphy_rating",
  "video_chat_provider",
  "jitsi_server_url",
  "upload_quota_mib",
  "message_content_allowed_in_email_notifications",
  "require_e2ee_push_notifications",
];
/** Everything else: who may do what, sign-up and identity rules. */
const PERMISSIONS = REALM_SETTING_NAMES.filter((n) => !PROFILE.includes(n) && !MESSAGES.includes(n)).sort(
  (a, b) => Number(REALM_SETTINGS[a].kind.t === "group") - Number(REALM_SETTINGS[b].kind.t === "group"),
);

export const REALM_PAGES = { profile: PROFILE, messages: MESSAGES, permissions: PERMISSIONS } as const;

function RealmControls({ names }: { names: readonly RealmSettingName[] }) {
  const r = realm.value;
  return (
    <div class="form admin-form">
      {names.map((n) => {
        const def = REALM_SETTINGS[n];
        const value = n === "name" ? r.realm_name : n === "description" ? r.realm_description : (r[`realm_${n}`] ?? def.default);
        return <SettingControl key={n} name={n} kind={def.kind} value={value} disabled={def.who === "owner" && !isOwner()} save={(v) => patchRealm(n, v)} />;
      })}
      {names.some((n) => REALM_SETTINGS[n].who === "owner") && !isOwner() && <p class="hint">Some of these settings only an owner may change.</p>}
    </div>
  );
}

export function RealmPage({ page }: { page: keyof typeof REALM_PAGES }) {
  if (page === "profile")
    return (
      <>
        <Part title="Organization profile" id="profile">
          <IconControl />
          <RealmControls names={PROFILE} />
          <div class="row end">
            <button
              class="btn small"
              onClick={() =>
                act(
                  () => api.post("realm/test_welcome_bot_custom_message", { welcome_message_custom_text: realm.value.realm_welcome_message_custom_text ?? "" }),
                  "Test welcome message sent to you",
                )
              }
            >
              Send me the welcome message
            </button>
          </div>
        </Part>
        {isOwner() && <Exports />}
      </>
    );
  if (page === "messages")
    return (
      <Part title="Messages: editing, retention and content" id="messages">
        <RealmControls names={MESSAGES} />
      </Part>
    );
  return (
    <>
      <Part title="Permissions and sign-up" id="permissions">
        <RealmControls names={PERMISSIONS} />
      </Part>
      <Domains />
    </>
  );
}

/** The organization icon, shown in everyone's header: upload a square image, or go back to the default. */
function IconControl() {
  const r = realm.value;
  return (
    <div class="row icon-control" data-testid="realm-icon-control">
      <img class="realm-icon large" src={r.realm_icon_url} alt="" width={64} height={64} />
      <span>
        Organization icon
        <br />
        <span class="hint">{r.realm_icon_source === "U" ? "Uploaded" : "The default"}; a square image shows best.</span>
      </span>
      <label class="btn small">
        Upload icon
        <input
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          class="sr-only"
          data-testid="realm-icon-upload"
          onChange={(e) => {
            const f = e.currentTarget.files?.[0];
            e.currentTarget.value = "";
            if (!f) return;
            const form = new FormData();
            form.append("file", f, f.name);
            act(() => api.post("realm/icon", form), "Icon updated");
          }}
        />
      </label>
      {r.realm_icon_source === "U" && (
        <button class="btn small" data-testid="realm-icon-delete" onClick={() => act(() => api.delete("realm/icon"), "Default icon restored")}>
          Use the default icon
        </button>
      )}
    </div>
  );
}

/** The email domains people may sign up with (when the organization restricts sign-up to them). */
function Domains() {
  const domain = useSignal("");
  const subdomains = useSignal(false);
  return (
    <Part title="Allowed email domains" id="domains" note="Used when sign-up is restricted to these domains (a setting above).">
      <ul class="admin-list">
        {realmDomains.value.map((d) => (
          <li key={d.domain}>
            <span class="grow">{d.domain}</span>
            <label class="check">
              <input
                type="checkbox"
                checked={d.allow_subdomains}
                onChange={(e) => act(() => api.patch(`realm/domains/${encodeURIComponent(d.domain)}`, { allow_subdomains: e.currentTarget.checked }))}
              />{" "}
              Subdomains too
            </label>
            <button class="btn small" onClick={() => act(() => api.delete(`realm/domains/${encodeURIComponent(d.domain)}`), "Domain removed")}>
              Remove
            </button>
          </li>
        ))}
        {!realmDomains.value.length && <li class="empty-note">No domains.</li>}
      </ul>
      <form
        class="row wrap"
        onSubmit={(e) => {
          e.preventDefault();
          act(() => api.post("realm/domains", { domain: domain.value.trim(), allow_subdomains: subdomains.value }), "Domain added").then(
            (ok) => ok && (domain.value = ""),
          );
        }}
      >
        <input aria-label="Domain" placeholder="example.com" required value={domain.value} onInput={(e) => (domain.value = e.currentTarget.value)} />
        <label class="check">
          <input type="checkbox" checked={subdomains.value} onChange={(e) => (subdomains.value = e.currentTarget.checked)} /> Subdomains too
        </label>
        <button class="btn">Add domain</button>
      </form>
    </Part>
  );
}

/** What new users start with: the organization's defaults for personal settings. */
export function UserDefaults() {
  const d = userDefaults.value;
  return (
    <Part title="Default settings for new users" id="defaults" note="People who join from now on start with these; everyone can change their own.">
      <div class="form admin-form">
        {PATCHABLE_DEFAULT_NAMES.map((n) => (
          <SettingControl
            key={n}
            name={n}
            kind={USER_SETTINGS[n].kind}
            value={d[n] ?? USER_SETTINGS[n].default}
            save={(v) => act(() => api.patch("realm/user_settings_defaults", { [n]: v }))}
          />
        ))}
      </div>
    </Part>
  );
}

/** Exports of the organization's data (owners): start one, follow it, download it. */
function Exports() {
  useEffect(() => {
    if (realmExports.value === null)
      api.get("export/realm").then(
        (r) => (realmExports.value = r.exports),
        () => (realmExports.value = []),
      );
  }, []);
  const consents = useSignal<{ user_id: number; consented: boolean }[]>([]);
  useEffect(() => {
    api.get("export/realm/consents").then(
      (r) => (consents.value = r.export_consents),
      () => {},
    );
  }, []);
  const agreed = consents.value.filter((c) => c.consented).length;
  const list = [...(realmExports.value ?? [])].sort((a, b) => b.export_time - a.export_time);
  return (
    <Part
      title="Export the organization's data"
      id="export"
      note="A public export holds public channels only; a full export also holds the private data of those who agreed to it."
    >
      <ul class="admin-list">
        {list.map((x) => (
          <li key={x.id}>
            <span class="grow">
              {new Date(x.export_time * 1000).toLocaleString()} · by {userName(x.acting_user_id)}
              {x.export_type === 2 && <span class="tag">Full</span>}
            </span>
            {x.pending ? (
              <span class="hint">Being prepared…</span>
            ) : x.failed_timestamp ? (
              <span class="hint">Failed</span>
            ) : x.deleted_timestamp ? (
              <span class="hint">Deleted</span>
            ) : x.export_url ? (
              <a href={x.export_url}>Download</a>
            ) : null}
          </li>
        ))}
        {!list.length && <li class="empty-note">No exports yet.</li>}
      </ul>
      <div class="row end wrap">
        <span class="hint grow">
          {agreed} of {consents.value.length} people agreed to have their private data in a full export.
        </span>
        <button class="btn small" onClick={() => act(() => api.post("export/realm", { export_type: 2 }), "Full export started")}>
          Start a full export
        </button>
        <button class="btn small" onClick={() => act(() => api.post("export/realm", { export_type: 1 }), "Export started")}>
          Start a public export
        </button>
      </div>
    </Part>
  );
}
