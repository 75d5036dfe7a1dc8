// The organization's administration state: what register gives for the administration pages (bots,
// linkifiers, profile fields, channel folders, allowed domains, default channels, defaults for new
// users), kept current by their events so another administrator's change shows without a reload.
// It imports nothing from state.ts (state.ts calls in here), so the store stays free of import circles.
import { signal } from "@preact/signals";

export interface Bot {
  user_id: number;
  full_name: string;
  email: string;
  bot_type: number;
  is_active: boolean;
  api_key?: string;
  owner_id: number | null;
  avatar_url?: string;
  services?: { base_url?: string; interface?: number }[];
}
export interface Linkifier {
  id: number;
  pattern: string;
  url_template: string;
}
export interface ProfileField {
  id: number;
  name: string;
  hint: string;
  type: number;
  field_data: string;
  order: number;
  required?: boolean;
  display_in_profile_summary?: boolean;
  editable_by_user?: boolean;
}
export interface ChannelFolder {
  id: number;
  name: string;
  description: string;
  order: number;
  is_archived: boolean;
}
export interface Playground {
  id: number;
  name: string;
  pygments_language: string;
  url_template: string;
}
export interface RealmExport {
  id: number;
  export_time: number;
  acting_user_id: number;
  export_url: string | null;
  deleted_timestamp: number | null;
  failed_timestamp: number | null;
  pending: boolean;
  export_type?: number;
}
export interface RealmDomain {
  domain: string;
  allow_subdomains: boolean;
}

export const bots = signal(new Map<number, Bot>());
export const linkifiers = signal<Linkifier[]>([]);
export const profileFields = signal<ProfileField[]>([]);
export const profileFieldTypes = signal<Record<string, { id: number; name: string }>>({});
export const channelFolders = signal<ChannelFolder[]>([]);
export const realmDomains = signal<RealmDomain[]>([]);
export const defaultChannels = signal<number[]>([]);
export const playgrounds = signal<Playground[]>([]);
/** Set by `realm_export` events (administrators); the export page fetches the list first. */
export const realmExports = signal<RealmExport[] | null>(null);
export const userDefaults = signal<Record<string, unknown>>({});
/** Bumped by `invites_changed`: the invitations page refetches its list. */
export const invitesVersion = signal(0);

const idOf = (x: number | { stream_id: number }) => (typeof x === "number" ? x : x.stream_id);

export function applyAdminInitial(r: any) {
  bots.value = new Map((r.realm_bots ?? []).map((b: Bot) => [b.user_id, b]));
  linkifiers.value = r.realm_linkifiers ?? [];
  profileFields.value = r.custom_profile_fields ?? [];
  profileFieldTypes.value = r.custom_profile_field_types ?? {};
  channelFolders.value = r.channel_folders ?? [];
  realmDomains.value = r.realm_domains ?? [];
  defaultChannels.value = (r.realm_default_streams ?? []).map(idOf);
  userDefaults.value = r.realm_user_settings_defaults ?? {};
  playgrounds.value = r.realm_playgrounds ?? [];
}

export function applyAdminEvent(e: any) {
  switch (e.type) {
    case "realm_bot": {
      const next = new Map(bots.value);
      if (e.op === "add") next.set(e.bot.user_id, e.bot);
      else if (e.op === "delete") next.delete(e.bot.user_id);
      else if (e.op === "remove") next.has(e.bot.user_id) && next.set(e.bot.user_id, { ...next.get(e.bot.user_id)!, is_active: false });
      else if (e.op === "update" && next.has(e.bot.user_id)) next.set(e.bot.user_id, { ...next.get(e.bot.user_id)!, ...e.bot });
      bots.value = next;
      break;
    }
    case "realm_user":
      // A bot's deactivation and reactivation reach its list entry through the user's events.
      if (e.op === "update" && e.person.is_active !== undefined && bots.value.has(e.person.user_id)) {
        const next = new Map(bots.value);
        next.set(e.person.user_id, { ...next.get(e.person.user_id)!, is_active: e.person.is_active });
        bots.value = next;
      }
      break;
    case "realm_linkifiers":
      linkifiers.value = e.realm_linkifiers;
      break;
    case "custom_profile_fields":
      profileFields.value = e.fields;
      break;
    case "channel_folder":
      if (e.op === "add") channelFolders.value = [...channelFolders.value, e.channel_folder];
      else if (e.op === "update") channelFolders.value = channelFolders.value.map((f) => (f.id === e.channel_folder_id ? { ...f, ...e.data } : f));
      else if (e.op === "reorder") {
        const rank = new Map<number, number>(e.order.map((id: number, i: number) => [id, i]));
        channelFolders.value = channelFolders.value.map((f) => ({ ...f, order: rank.get(f.id) ?? f.order }));
      }
      break;
    case "realm_domains":
      if (e.op === "add") realmDomains.value = [...realmDomains.value, e.realm_domain];
      else if (e.op === "change") realmDomains.value = realmDomains.value.map((d) => (d.domain === e.realm_domain.domain ? e.realm_domain : d));
      else if (e.op === "remove") realmDomains.value = realmDomains.value.filter((d) => d.domain !== e.domain);
      break;
    case "default_streams":
      defaultChannels.value = e.default_streams.map(idOf);
      break;
    case "realm_user_settings_defaults":
      if (e.op === "update") userDefaults.value = { ...userDefaults.value, [e.property]: e.value };
      break;
    case "realm_playgrounds":
      playgrounds.value = e.realm_playgrounds;
      break;
    case "realm_export":
      realmExports.value = e.exports;
      break;
    case "invites_changed":
      invitesVersion.value++;
      break;
  }
}
