// Every organization setting once: its type, default, who may change it and how its change is announced.
// This table drives PATCH /realm (parameters and validation), the `realm` register state (realm_<name>)
// and the `realm` update / update_dict events. realms.settings stores only values that differ from the
// default; `name` and `description` live in their own columns.
import type { RealmRow } from "../db/schema";
import { permission, type PermissionConfig, type SystemGroupName } from "./group-settings";

/** The shape of one setting's value; routes turn it into a parameter, actions into validation. */
export type SettingKind =
  | { t: "bool" }
  | {
      t: "int";
      min?: number;
      max?: number;
      values?: readonly number[];
      nullable?: boolean;
      /** Strings accepted in place of a number, and the value each stands for (e.g. "unlimited"). */
      special?: Readonly<Record<string, number | null>>;
    }
  | { t: "str"; max?: number; values?: readonly string[]; nullable?: boolean; nonEmpty?: boolean }
  | { t: "group"; config: PermissionConfig };

export interface RealmSettingDef {
  kind: SettingKind;
  /** For group settings, the system group that holds the permission by default. */
  default: unknown;
  /** Who may change it through PATCH /realm. */
  who: "admin" | "owner";
  /** `update` events carry { property, value }; `update_dict` ones { data: { name: value } }. */
  event: "update" | "update_dict";
}

const bool = (def: boolean, who: "admin" | "owner" = "admin"): RealmSettingDef => ({ kind: { t: "bool" }, default: def, who, event: "update" });
const int = (def: number | null, k: Omit<Extract<SettingKind, { t: "int" }>, "t"> = {}, who: "admin" | "owner" = "admin"): RealmSettingDef => ({
  kind: { t: "int", ...k },
  default: def,
  who,
  event: k.nullable ? "update_dict" : "update",
});
const str = (def: string | null, k: Omit<Extract<SettingKind, { t: "str" }>, "t"> = {}): RealmSettingDef => ({
  kind: { t: "str", ...k },
  default: def,
  who: "admin",
  event: "update",
});
type GroupSettingDef = RealmSettingDef & { kind: { t: "group"; config: PermissionConfig }; default: SystemGroupName };
const group = (def: SystemGroupName, c: Partial<PermissionConfig> = {}, who: "admin" | "owner" = "admin"): GroupSettingDef => ({
  kind: { t: "group", config: permission({ default: def, ...c }) },
  default: def,
  who,
  event: "update_dict",
});

const UNLIMITED = { unlimited: null } as const;
const WEEK = 7 * 24 * 3600;
/** Zulip's organization types (ids as its API sends them). */
export const ORG_TYPES = [0, 10, 20, 30, 35, 40, 50, 60, 70, 80, 90, 100, 1000] as const;
export const VIDEO_CHAT_PROVIDERS = { disabled: { name: "None", id: 0 }, jitsi_meet: { name: "Jitsi Meet", id: 1 } } as const;
export const GIPHY_RATINGS = {
  disabled: { name: "GIPHY integration disabled", id: 0 },
  y: { name: "Allow GIFs rated Y (Very young audience)", id: 1 },
  g: { name: "Allow GIFs rated G (General audience)", id: 2 },
  pg: { name: "Allow GIFs rated PG (Parental guidance)", id: 3 },
  "pg-13": { name: "Allow GIFs rated PG-13 (Parental guidance - under 13)", id: 4 },
  r: { name: "Allow GIFs rated R (Restricted)", id: 5 },
} as const;
export const MAX_REALM_NAME_LENGTH = 40;
export const MAX_REALM_DESCRIPTION_LENGTH = 1000;

export const REALM_SETTINGS = {
  name: str("", { max: MAX_REALM_NAME_LENGTH, nonEmpty: true }),
  description: str("", { max: MAX_REALM_DESCRIPTION_LENGTH }),
  allow_message_editing: { ...bool(true), event: "update_dict" },
  avatar_changes_disabled: bool(false),
  default_code_block_language: str("", { max: 100 }),
  default_language: str("en", { max: 50, nonEmpty: true }),
  digest_emails_enabled: bool(false),
  digest_weekday: int(1, { values: [0, 1, 2, 3, 4, 5, 6] }),
  disallow_disposable_email_addresses: bool(true, "owner"),
  email_changes_disabled: bool(false),
  emails_restricted_to_domains: bool(false, "owner"),
  enable_guest_user_dm_warning: bool(true),
  enable_guest_user_indicator: bool(true),
  enable_read_receipts: bool(false),
  enable_spectator_access: bool(false),
  giphy_rating: int(GIPHY_RATINGS.g.id, { values: Object.values(GIPHY_RATINGS).map((r) => r.id) }),
  inline_image_preview: bool(true),
  inline_url_embed_preview: bool(false),
  invite_required: bool(true, "owner"),
  jitsi_server_url: str(null, { nullable: true, max: 200 }),
  message_content_allowed_in_email_notifications: bool(true),
  message_content_delete_limit_seconds: int(600, { min: 1, nullable: true, special: UNLIMITED }),
  message_content_edit_limit_seconds: int(600, { min: 1, nullable: true, special: UNLIMITED }),
  message_edit_history_visibility_policy: str("all", { values: ["all", "moves", "none"] }),
  message_retention_days: int(-1, { min: 1, special: { unlimited: -1, forever: -1 } }, "owner"),
  move_messages_between_streams_limit_seconds: int(WEEK, { min: 1, nullable: true, special: UNLIMITED }),
  move_messages_within_stream_limit_seconds: int(WEEK, { min: 1, nullable: true, special: UNLIMITED }),
  name_changes_disabled: bool(false),
  org_type: int(0, { values: ORG_TYPES }),
  require_e2ee_push_notifications: bool(false),
  require_unique_names: bool(false),
  send_welcome_emails: bool(true),
  topics_policy: str("allow_empty_topic", { values: ["allow_empty_topic", "disable_empty_topic"] }),
  video_chat_provider: int(VIDEO_CHAT_PROVIDERS.jitsi_meet.id, { values: Object.values(VIDEO_CHAT_PROVIDERS).map((v) => v.id) }),
  waiting_period_threshold: int(0, { min: 0, max: 1000000 }),
  // Zulip derives it from the billing plan; here the owner sets it (null: no quota). Checked by POST /user_uploads.
  upload_quota_mib: int(null, { min: 0, nullable: true, special: UNLIMITED }, "owner"),
  want_advertise_in_communities_directory: bool(false),
  welcome_message_custom_text: str("", { max: 8000 }),
  // Channels named by id; -1 means none.
  moderation_request_channel_id: int(-1, { min: -1 }),
  new_stream_announcements_stream_id: int(-1, { min: -1 }),
  signup_announcements_stream_id: int(-1, { min: -1 }),
  zulip_update_announcements_stream_id: int(-1, { min: -1 }),
  // Permissions, each a group-setting value (Zulip's REALM_PERMISSION_GROUP_SETTINGS).
  can_access_all_users_group: group("role:everyone", {
    requireSystemGroup: true,
    allowNobody: false,
    allowEveryone: true,
    allowedSystemGroups: ["role:everyone", "role:members"],
  }),
  can_add_custom_emoji_group: group("role:members"),
  can_add_subscribers_group: group("role:members"),
  can_create_bots_group: group("role:members"),
  can_create_groups: group("role:members", {}, "owner"),
  can_create_private_channel_group: group("role:members"),
  can_create_public_channel_group: group("role:members"),
  can_create_web_public_channel_group: group("role:owners", {
    requireSystemGroup: true,
    allowedSystemGroups: ["role:moderators", "role:administrators", "role:owners", "role:nobody"],
  }),
  can_create_write_only_bots_group: group("role:members"),
  can_delete_any_message_group: group("role:administrators"),
  can_delete_own_message_group: group("role:everyone", { allowEveryone: true }),
  can_invite_users_group: group("role:members", {}, "owner"),
  can_manage_all_groups: group("role:owners", { allowNobody: false }, "owner"),
  can_manage_billing_group: group("role:administrators", { allowNobody: false }),
  // confab's extension layer: who installs and manages plugins (never guests or bots).
  can_manage_plugins_group: group("role:administrators"),
  can_mention_many_users_group: group("role:administrators", { allowEveryone: true }),
  can_move_messages_between_channels_group: group("role:members"),
  can_move_messages_between_topics_group: group("role:everyone", { allowEveryone: true }),
  can_resolve_topics_group: group("role:everyone", { allowEveryone: true }),
  can_set_delete_message_policy_group: group("role:moderators"),
  can_set_topics_policy_group: group("role:members", { allowEveryone: true }),
  can_summarize_topics_group: group("role:everyone", { allowEveryone: true }),
  create_multiuse_invite_group: group("role:administrators", {}, "owner"),
  direct_message_initiator_group: group("role:everyone", { allowEveryone: true }),
  direct_message_permission_group: group("role:everyone", { allowEveryone: true }),
} satisfies Record<string, RealmSettingDef>;

export type RealmSettingName = keyof typeof REALM_SETTINGS;
export const REALM_SETTING_NAMES = Object.keys(REALM_SETTINGS) as RealmSettingName[];
export type RealmGroupSettingName = {
  [K in RealmSettingName]: (typeof REALM_SETTINGS)[K]["kind"] extends { t: "group" } ? K : never;
}[RealmSettingName];
export const REALM_GROUP_SETTING_NAMES = REALM_SETTING_NAMES.filter((n) => REALM_SETTINGS[n].kind.t === "group") as RealmGroupSettingName[];

/**
 * A realm's value for a setting that is not a group setting (those need the realm's system group
 * ids: see store/realm-settings.ts `realmGroupSetting`). Defaults apply where nothing is stored.
 */
export function realmSetting(realm: RealmRow, name: Exclude<RealmSettingName, RealmGroupSettingName>): unknown {
  if (name === "name") return realm.name;
  if (name === "description") return realm.description;
  const stored = realm.settings[name];
  return stored === undefined ? REALM_SETTINGS[name].default : stored;
}

/** Value to store: the default is stored as absence, so a changed default reaches every realm that kept it. */
export function withSetting(settings: Record<string, unknown>, name: string, value: unknown, def: unknown): Record<string, unknown> {
  const out = { ...settings };
  if (JSON.stringify(value) === JSON.stringify(def)) delete out[name];
  else out[name] = value;
  return out;
}

/** A parsed wire value as stored: special strings (e.g. "unlimited") become the value they stand for. */
export function fromWire(kind: SettingKind, v: unknown): unknown {
  if (kind.t === "int" && typeof v === "string" && kind.special && v in kind.special) return kind.special[v];
  if (kind.t === "str" && kind.nullable && v === "default") return null;
  return v;
}
