// Zulip's export format (what `manage.py export` writes and `manage.py import` reads): realm.json with
// the organization's tables (zerver_realm, zerver_userprofile, zerver_stream, zerver_recipient,
// zerver_subscription, zerver_huddle, zerver_defaultstream, zerver_reaction), messages-NNNNNN.json
// with zerver_message and zerver_usermessage, attachment.json with zerver_attachment, and an uploads/
// tree whose records.json lists each file. Dates are UNIX seconds as floats; recipients are typed
// (1 a user, 2 a channel, 3 a group conversation), and a two-person conversation is addressed to the
// other person's personal recipient. Pure conversion both ways; reading and writing files is elsewhere.
import type { Archive, ArchiveMessage } from "./realm-archive";
import { KEPT_FLAGS } from "./realm-archive";
import { pushTo } from "../lib/collections";

type Row = Record<string, any>;
export interface ZulipExportFiles {
  realm: Row;
  messages: Row[];
  attachment: Row;
  records: Row[];
}

const PERSONAL = 1;
const STREAM = 2;
const HUDDLE = 3;
/** How many messages one messages-NNNNNN.json holds, as Zulip chunks them. */
export const MESSAGES_PER_FILE = 1000;

export const messagesFileName = (n: number) => `messages-${String(n).padStart(6, "0")}.json`;

/** The path_id of an uploaded file, Zulip's "<realm id>/<2 chars>/<random>/<name>". */
export const uploadPathId = (realmId: number, fileId: number, name: string) =>
  `${realmId}/${(fileId % 256).toString(16).padStart(2, "0")}/f${fileId}/${name.replace(/[/\\]/g, "_")}`;

export function toZulipExport(a: Archive, realmId: number): ZulipExportFiles {
  let nextRecipient = 1;
  const userRecipient = new Map(a.users.map((u) => [u.id, nextRecipient++]));
  const channelRecipient = new Map(a.channels.map((c) => [c.id, nextRecipient++]));
  const huddles = new Map<string, { id: number; recipient: number; members: number[] }>();
  const recipientOf = (m: ArchiveMessage): number => {
    if (m.channelId !== null) return channelRecipient.get(m.channelId)!;
    const members = [...new Set(m.dmUserIds!)].sort((x, y) => x - y);
    if (members.length <= 2) return userRecipient.get(members.find((id) => id !== m.senderId) ?? m.senderId)!;
    const key = members.join(",");
    let h = huddles.get(key);
    if (!h) huddles.set(key, (h = { id: huddles.size + 1, recipient: nextRecipient++, members }));
    return h.recipient;
  };
  const messageRecipient = new Map(a.messages.map((m) => [m.id, recipientOf(m)]));
  let subId = 1;
  const subscriptions: Row[] = [
    ...a.users.map((u) => ({
      id: subId++,
      user_profile: u.id,
      recipient: userRecipient.get(u.id),
      active: true,
      color: "#c2c2c2",
      is_muted: false,
      pin_to_top: false,
    })),
    ...a.channels.flatMap((c) =>
      c.subscribers.map((s) => ({
        id: subId++,
        user_profile: s.userId,
        recipient: channelRecipient.get(c.id),
        active: s.active,
        color: s.color ?? "#c2c2c2",
        is_muted: s.isMuted,
        pin_to_top: s.pinToTop,
      })),
    ),
    ...[...huddles.values()].flatMap((h) =>
      h.members.map((u) => ({ id: subId++, user_profile: u, recipient: h.recipient, active: true, color: "#c2c2c2", is_muted: false, pin_to_top: false })),
    ),
  ];
  const realm: Row = {
    zerver_realm: [
      { id: realmId, string_id: a.realm.stringId, name: a.realm.name, description: a.realm.description, date_created: a.realm.dateCreated, deactivated: false },
    ],
    zerver_userprofile: a.users.map((u) => ({
      id: u.id,
      email: u.email,
      delivery_email: u.email,
      full_name: u.fullName,
      role: u.role,
      is_active: u.isActive,
      is_bot: u.isBot,
      bot_type: u.botType,
      bot_owner: u.botOwnerId,
      date_joined: u.dateJoined,
      timezone: u.timezone,
      realm: realmId,
      recipient: userRecipient.get(u.id),
      is_mirror_dummy: false,
      avatar_source: "G",
    })),
    zerver_stream: a.channels.map((c) => ({
      id: c.id,
      name: c.name,
      description: c.description,
      invite_only: c.inviteOnly,
      history_public_to_subscribers: c.historyPublicToSubscribers,
      is_web_public: c.isWebPublic,
      date_created: c.dateCreated,
      creator: c.creatorId,
      deactivated: c.isArchived,
      realm: realmId,
      recipient: channelRecipient.get(c.id),
    })),
    zerver_recipient: [
      ...a.users.map((u) => ({ id: userRecipient.get(u.id), type: PERSONAL, type_id: u.id })),
      ...a.channels.map((c) => ({ id: channelRecipient.get(c.id), type: STREAM, type_id: c.id })),
      ...[...huddles.values()].map((h) => ({ id: h.recipient, type: HUDDLE, type_id: h.id })),
    ],
    zerver_huddle: [...huddles.entries()].map(([key, h]) => ({ id: h.id, huddle_hash: key, group_size: h.members.length, recipient: h.recipient })),
    zerver_subscription: subscriptions,
    zerver_defaultstream: a.channels.filter((c) => c.isDefault).map((c, i) => ({ id: i + 1, realm: realmId, stream: c.id })),
    zerver_reaction: a.reactions.map((r, i) => ({
      id: i + 1,
      message: r.messageId,
      user_profile: r.userId,
      emoji_name: r.emojiName,
      emoji_code: r.emojiCode,
      reaction_type: r.reactionType,
    })),
  };
  const withFiles = new Set(a.files.flatMap((f) => f.messageIds));
  const messages: Row[] = [];
  let umId = 1;
  for (let i = 0; i < a.messages.length; i += MESSAGES_PER_FILE) {
    const chunk = a.messages.slice(i, i + MESSAGES_PER_FILE);
    messages.push({
      zerver_message: chunk.map((m) => ({
        id: m.id,
        sender: m.senderId,
        recipient: messageRecipient.get(m.id),
        realm: realmId,
        subject: m.topic,
        content: m.content,
        rendered_content: m.renderedContent,
        date_sent: m.dateSent,
        last_edit_time: m.lastEditTime,
        sending_client: m.client,
        has_attachment: withFiles.has(m.id),
      })),
      zerver_usermessage: chunk.flatMap((m) => (m.flags ?? []).map(([user, flags]) => ({ id: umId++, user_profile: user, message: m.id, flags_mask: flags }))),
    });
  }
  const attachment = {
    zerver_attachment: a.files.map((f) => ({
      id: f.id,
      file_name: f.name,
      path_id: f.source,
      owner: f.ownerId,
      realm: realmId,
      size: f.size,
      create_time: f.createTime,
      content_type: f.contentType,
      messages: f.messageIds,
      is_realm_public: true,
    })),
  };
  const owner = new Map(a.users.map((u) => [u.id, u.email]));
  const records = a.files.map((f) => ({
    path: f.source,
    s3_path: f.source,
    realm_id: realmId,
    user_profile_id: f.ownerId,
    user_profile_email: owner.get(f.ownerId),
    size: f.size,
    last_modified: f.createTime,
    content_type: f.contentType,
  }));
  return { realm, messages, attachment, records };
}

/** "notification-bot@zulip.com" → "Notification Bot". */
const botName = (email: string) =>
  email
    .split("@")[0]!
    .split(/[-_.]/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(" ");

const seconds = (v: unknown): number => (typeof v === "number" ? Math.floor(v) : typeof v === "string" ? Math.floor(Date.parse(v) / 1000) || 0 : 0);
const list = (v: unknown): Row[] => (Array.isArray(v) ? v : []);

/** Reads Zulip's tables (from any Zulip version that writes `role`, or the older `is_realm_admin`). */
export function fromZulipExport(f: ZulipExportFiles): Archive {
  const r = f.realm;
  const realmRow = list(r.zerver_realm)[0];
  if (!realmRow) throw new Error("realm.json has no zerver_realm row: not a Zulip export");
  const recipients = new Map(list(r.zerver_recipient).map((x) => [x.id as number, x]));
  const recipientOfStream = new Map(
    list(r.zerver_recipient)
      .filter((x) => x.type === STREAM)
      .map((x) => [x.type_id as number, x.id as number]),
  );
  const userOfRecipient = new Map(
    list(r.zerver_recipient)
      .filter((x) => x.type === PERSONAL)
      .map((x) => [x.id, x.type_id as number]),
  );
  const subs = list(r.zerver_subscription);
  const subsByRecipient = new Map<number, Row[]>();
  for (const s of subs) pushTo(subsByRecipient, s.recipient, s);
  const huddleMembers = new Map<number, number[]>();
  for (const s of subs) if (recipients.get(s.recipient)?.type === HUDDLE) pushTo(huddleMembers, s.recipient, s.user_profile);
  const defaults = new Set(list(r.zerver_defaultstream).map((d) => d.stream));
  const users = [...list(r.zerver_userprofile), ...list(r.zerver_userprofile_mirrordummy)].map((u) => ({
    id: u.id,
    email: String(u.delivery_email || u.email),
    fullName: String(u.full_name ?? u.email),
    role: typeof u.role === "number" ? u.role : u.is_realm_admin ? 200 : u.is_guest ? 600 : 400,
    isActive: u.is_active !== false && !u.is_mirror_dummy,
    isBot: !!u.is_bot,
    botType: u.bot_type ?? null,
    botOwnerId: u.bot_owner ?? null,
    dateJoined: seconds(u.date_joined),
    timezone: String(u.timezone ?? ""),
  }));
  // Zulip's system bots (notification bot, welcome bot …) live in another realm; their messages come
  // along, so they become bots of the new organization.
  const known = new Set(users.map((u) => u.id));
  for (const b of list(r.zerver_userprofile_crossrealm))
    if (!known.has(b.id))
      users.push({
        id: b.id,
        email: String(b.email),
        fullName: botName(String(b.email)),
        role: 400,
        isActive: true,
        isBot: true,
        botType: 1,
        botOwnerId: null,
        dateJoined: 0,
        timezone: "",
      });
  const clients = new Map(list(r.zerver_client).map((c) => [c.id, String(c.name)]));
  const channels = list(r.zerver_stream).map((c) => {
    const recipient = c.recipient ?? recipientOfStream.get(c.id);
    return {
      id: c.id,
      name: String(c.name),
      description: String(c.description ?? ""),
      inviteOnly: !!c.invite_only,
      historyPublicToSubscribers: c.history_public_to_subscribers !== false,
      isWebPublic: !!c.is_web_public,
      dateCreated: seconds(c.date_created),
      creatorId: c.creator ?? null,
      isArchived: !!c.deactivated,
      isDefault: defaults.has(c.id),
      subscribers: (subsByRecipient.get(recipient) ?? []).map((s) => ({
        userId: s.user_profile,
        active: s.active !== false,
        color: s.color ?? null,
        isMuted: !!(s.is_muted ?? s.in_home_view === false),
        pinToTop: !!s.pin_to_top,
      })),
    };
  });
  const messages: ArchiveMessage[] = [];
  const flags = new Map<number, [number, number][]>();
  for (const file of f.messages)
    for (const um of list(file.zerver_usermessage)) {
      const mask = typeof um.flags_mask === "number" ? um.flags_mask : 0;
      pushTo(flags, um.message, [um.user_profile, mask & KEPT_FLAGS]);
    }
  for (const file of f.messages)
    for (const m of list(file.zerver_message)) {
      const rec = recipients.get(m.recipient);
      if (!rec) continue;
      const dmUserIds =
        rec.type === PERSONAL
          ? [...new Set([m.sender, userOfRecipient.get(m.recipient)!])]
          : rec.type === HUDDLE
            ? (huddleMembers.get(m.recipient) ?? [m.sender])
            : null;
      messages.push({
        id: m.id,
        senderId: m.sender,
        channelId: rec.type === STREAM ? rec.type_id : null,
        dmUserIds,
        topic: rec.type === STREAM ? String(m.subject ?? m.topic_name ?? "") : "",
        content: String(m.content ?? ""),
        renderedContent: typeof m.rendered_content === "string" ? m.rendered_content : null,
        dateSent: seconds(m.date_sent ?? m.pub_date),
        client: typeof m.sending_client === "string" ? m.sending_client : (clients.get(m.sending_client) ?? "Zulip import"),
        lastEditTime: m.last_edit_time == null ? null : seconds(m.last_edit_time),
        flags: flags.get(m.id) ?? [],
      });
    }
  messages.sort((x, y) => x.id - y.id);
  const records = new Map(
    f.records.flatMap((y) => [
      [y.s3_path, y],
      [y.path, y],
    ]),
  );
  const reactionRows = [...list(r.zerver_reaction), ...f.messages.flatMap((m) => list(m.zerver_reaction))];
  return {
    realm: {
      name: String(realmRow.name),
      stringId: String(realmRow.string_id ?? ""),
      description: String(realmRow.description ?? ""),
      dateCreated: seconds(realmRow.date_created),
    },
    users,
    channels,
    messages,
    reactions: reactionRows.map((x) => ({
      messageId: x.message,
      userId: x.user_profile,
      emojiName: x.emoji_name,
      emojiCode: x.emoji_code,
      reactionType: x.reaction_type ?? "unicode_emoji",
    })),
    files: list(f.attachment.zerver_attachment).map((x) => {
      const rec = records.get(x.path_id);
      return {
        id: x.id,
        ownerId: x.owner,
        name: String(x.file_name),
        source: String(rec?.path ?? x.path_id),
        size: Number(x.size ?? rec?.size ?? 0),
        createTime: seconds(x.create_time),
        contentType: x.content_type ?? rec?.content_type ?? null,
        messageIds: list(x.messages) as unknown as number[],
      };
    }),
  };
}
