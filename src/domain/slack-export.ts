// The export a Slack workspace administrator downloads: a zip holding users.json, channels.json
// (public), groups.json (private), dms.json and mpims.json (direct conversations), and one folder per
// conversation (a channel's name, or a direct conversation's id) of daily files YYYY-MM-DD.json, each a
// list of messages: `user`, `text` in Slack's mrkdwn, `ts` (seconds.micros, also the message's id),
// `thread_ts` on a thread's replies, `reactions` ({name, users}), `files`. Pure conversion to an
// Archive: a thread becomes a topic named after its first message, the rest of a channel goes to one
// topic. Slack does not put file contents in the zip; files found in it (under __uploads/<id>/) are
// attached (linked as uploads, which the importer stores), others are linked where Slack keeps them.
import type { Archive, ArchiveChannel, ArchiveFile, ArchiveMessage, ArchiveReaction, ArchiveUser } from "./realm-archive";
import { ROLE } from "./roles";
import { uploadUrl } from "./uploads";

type Row = Record<string, any>;

export interface SlackExportFiles {
  /** users.json, channels.json, groups.json, dms.json, mpims.json (absent ones as []). */
  lists: Record<"users" | "channels" | "groups" | "dms" | "mpims", Row[]>;
  /** A conversation folder's name → its messages, every daily file concatenated. */
  messages: Map<string, Row[]>;
  /** Whether the zip holds a file's bytes at this path. */
  hasFile(path: string): boolean;
}

export type EmojiLookup = (slackName: string) => { name: string; code: string; type: string } | null;

/** The topic of channel messages outside any thread, as Zulip's own Slack importer names it. */
export const SLACK_DEFAULT_TOPIC = "imported from Slack";
const MAX_TOPIC = 60;

export const slackFilePath = (fileId: string, name: string) => `__uploads/${fileId}/${name}`;

export function fromSlackExport(f: SlackExportFiles, realmName: string, emoji: EmojiLookup): Archive {
  const userIds = new Map<string, number>();
  const users: ArchiveUser[] = f.lists.users.map((u, i) => {
    userIds.set(u.id, i + 1);
    const profile = u.profile ?? {};
    const email =
      profile.email ||
      `${String(u.name || u.id)
        .toLowerCase()
        .replace(/[^a-z0-9._-]/g, "")}@slack.invalid`;
    return {
      id: i + 1,
      email,
      fullName: profile.real_name || u.real_name || profile.display_name || u.name || u.id,
      role: u.is_primary_owner || u.is_owner ? ROLE.owner : u.is_admin ? ROLE.administrator : u.is_restricted ? ROLE.guest : ROLE.member,
      isActive: !u.deleted,
      isBot: !!u.is_bot,
      botType: u.is_bot ? 1 : null,
      botOwnerId: null,
      dateJoined: Number(u.updated) || 0,
      timezone: u.tz ?? "",
    };
  });
  // Integrations post with a bot_id and no user: each becomes a bot, named as its messages show it.
  const folders = [...f.messages.values()].flat();
  for (const m of folders)
    if (!m.user && m.bot_id && !userIds.has(m.bot_id)) {
      const id = users.length + 1;
      userIds.set(m.bot_id, id);
      const name = String(m.bot_profile?.name || m.username || m.bot_id);
      users.push({
        id,
        email: `${String(m.bot_id).toLowerCase()}-bot@slack.invalid`,
        fullName: name,
        role: ROLE.member,
        isActive: true,
        isBot: true,
        botType: 1,
        botOwnerId: null,
        dateJoined: 0,
        timezone: "",
      });
    }
  const uid = (slackId: string | undefined) => (slackId ? userIds.get(slackId) : undefined);
  const names = new Map(users.map((u) => [u.id, u.fullName]));
  const channelNames = new Map<string, string>();

  const channels: ArchiveChannel[] = [];
  const conversations: { folder: string; channelId: number | null; dmUserIds: number[] | null }[] = [];
  for (const [list, inviteOnly] of [
    [f.lists.channels, false],
    [f.lists.groups, true],
  ] as const)
    for (const c of list) {
      const id = channels.length + 1;
      channelNames.set(c.id, c.name);
      const members = ((c.members ?? []) as string[]).map(uid).filter((x): x is number => x !== undefined);
      channels.push({
        id,
        name: String(c.name),
        description: String(c.purpose?.value || c.topic?.value || ""),
        inviteOnly,
        historyPublicToSubscribers: true,
        isWebPublic: false,
        dateCreated: Number(c.created) || 0,
        creatorId: uid(c.creator) ?? null,
        isArchived: !!c.is_archived,
        isDefault: !!c.is_general,
        subscribers: members.map((userId) => ({ userId, active: true, color: null, isMuted: false, pinToTop: false })),
      });
      conversations.push({ folder: c.name, channelId: id, dmUserIds: null });
    }
  for (const d of [...f.lists.dms, ...f.lists.mpims]) {
    const members = ((d.members ?? []) as string[]).map(uid).filter((x): x is number => x !== undefined);
    if (members.length) conversations.push({ folder: d.name ?? d.id, channelId: null, dmUserIds: members });
  }

  const messages: ArchiveMessage[] = [];
  const reactions: ArchiveReaction[] = [];
  const files: ArchiveFile[] = [];
  let nextId = 1;
  for (const conv of conversations) {
    const rows = (f.messages.get(conv.folder) ?? []).filter(
      (m) => m.type === "message" && uid(m.user ?? m.bot_id) !== undefined && !HIDDEN_SUBTYPES.has(m.subtype),
    );
    rows.sort((a, b) => Number(a.ts) - Number(b.ts));
    const threadTopics = new Map<string, string>();
    const used = new Set<string>();
    const byTs = new Map(rows.map((r) => [r.ts, r]));
    // A thread is a message with replies; a lone thread_ts (a reply-less root) is not one.
    const withReplies = new Set(rows.filter((r) => r.thread_ts && r.ts !== r.thread_ts).map((r) => r.thread_ts));
    const topicOf = (m: Row): string => {
      if (conv.channelId === null) return "";
      const root = m.thread_ts && withReplies.has(m.thread_ts) ? m.thread_ts : null;
      if (!root) return SLACK_DEFAULT_TOPIC;
      let topic = threadTopics.get(root);
      if (!topic) {
        const parent = byTs.get(root);
        const base = plainLine(convertText(parent?.text ?? "", names, userIds, channelNames)) || `Thread ${threadTopics.size + 1}`;
        topic = base;
        for (let n = 2; used.has(topic.toLowerCase()); n++) topic = `${base.slice(0, MAX_TOPIC - 5)} (${n})`;
        used.add(topic.toLowerCase());
        threadTopics.set(root, topic);
      }
      return topic;
    };
    for (const m of rows) {
      const id = nextId++;
      const senderId = uid(m.user ?? m.bot_id)!;
      let content = convertText(String(m.text ?? ""), names, userIds, channelNames);
      for (const file of (m.files ?? []) as Row[]) {
        const name = String(file.name ?? file.title ?? file.id);
        const source = slackFilePath(file.id, name);
        if (f.hasFile(source)) {
          files.push({
            id: files.length + 1,
            ownerId: senderId,
            name,
            source,
            size: Number(file.size) || 0,
            createTime: Math.floor(Number(m.ts)),
            contentType: file.mimetype ?? null,
            messageIds: [id],
          });
          content += `\n[${name}](${uploadUrl(source)})`;
        } else if (file.url_private) content += `\n[${name}](${file.url_private})`;
      }
      const dms = conv.dmUserIds ? [...new Set([senderId, ...conv.dmUserIds])] : null;
      messages.push({
        id,
        senderId,
        channelId: conv.channelId,
        dmUserIds: dms,
        topic: topicOf(m),
        content: content.trim() || "(empty message)",
        renderedContent: null,
        dateSent: Math.floor(Number(m.ts)),
        client: "Slack import",
        lastEditTime: m.edited?.ts ? Math.floor(Number(m.edited.ts)) : null,
        flags: null,
      });
      for (const r of (m.reactions ?? []) as Row[]) {
        const e = emoji(String(r.name).replace(/::skin-tone-\d$/, ""));
        if (!e) continue;
        for (const u of new Set((r.users ?? []) as string[])) {
          const userId = uid(u);
          if (userId !== undefined) reactions.push({ messageId: id, userId, emojiName: e.name, emojiCode: e.code, reactionType: e.type });
        }
      }
    }
  }
  messages.sort((a, b) => a.dateSent - b.dateSent || a.id - b.id);
  return {
    realm: {
      name: realmName,
      stringId: "",
      description: "",
      dateCreated: Math.min(...channels.map((c) => c.dateCreated).filter(Boolean), Math.floor(Date.now() / 1000)),
    },
    users,
    channels,
    messages,
    reactions,
    files,
  };
}

/** Join/leave notices and the like, which Zulip shows in its own way or not at all. */
const HIDDEN_SUBTYPES = new Set(["channel_join", "channel_leave", "group_join", "group_leave", "channel_purpose", "channel_topic", "channel_name"]);

const plainLine = (s: string) =>
  s
    .split("\n")[0]!
    .replace(/[*_~`]/g, "")
    .trim()
    .slice(0, MAX_TOPIC)
    .trim();

/** Slack's mrkdwn to Zulip's Markdown: mentions, channel links, links, emphasis and escapes. */
export function convertText(text: string, names: Map<number, string>, userIds: Map<string, number>, channelNames: Map<string, string>): string {
  return text
    .replace(/<@([A-Z0-9]+)(?:\|[^>]*)?>/g, (whole, id) => {
      const n = names.get(userIds.get(id) ?? -1);
      return n ? `@**${n}**` : whole;
    })
    .replace(/<#([A-Z0-9]+)(?:\|([^>]*))?>/g, (_w, id, label) => `#**${channelNames.get(id) ?? label ?? id}**`)
    .replace(/<!(here|channel|everyone)(?:\|[^>]*)?>/g, (_w, w) => `@**${w === "here" ? "here" : "all"}**`)
    .replace(/<(https?:\/\/[^|>]+)\|([^>]+)>/g, "[$2]($1)")
    .replace(/<(https?:\/\/[^>]+)>/g, "$1")
    .replace(/<mailto:([^|>]+)\|([^>]+)>/g, "[$2](mailto:$1)")
    .replace(/(^|[\s(])\*([^*\n]+)\*(?=$|[\s).,!?:;])/g, "$1**$2**")
    .replace(/(^|[\s(])_([^_\n]+)_(?=$|[\s).,!?:;])/g, "$1*$2*")
    .replace(/(^|[\s(])~([^~\n]+)~(?=$|[\s).,!?:;])/g, "$1~~$2~~")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}
