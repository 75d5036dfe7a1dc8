// An organization's history as exports carry it: the one shape that `confab export` writes from,
// and that the Zulip and Slack readers produce for `confab import`. Ids are the source's own; the
// importer maps them to new ones.

export interface ArchiveUser {
  id: number;
  email: string;
  fullName: string;
  role: number;
  isActive: boolean;
  isBot: boolean;
  botType: number | null;
  botOwnerId: number | null;
  dateJoined: number;
  timezone: string;
}

export interface ArchiveSubscription {
  userId: number;
  active: boolean;
  color: string | null;
  isMuted: boolean;
  pinToTop: boolean;
}

export interface ArchiveChannel {
  id: number;
  name: string;
  description: string;
  inviteOnly: boolean;
  historyPublicToSubscribers: boolean;
  isWebPublic: boolean;
  dateCreated: number;
  creatorId: number | null;
  isArchived: boolean;
  isDefault: boolean;
  subscribers: ArchiveSubscription[];
}

export interface ArchiveMessage {
  id: number;
  senderId: number;
  /** A channel message's channel, else null. */
  channelId: number | null;
  /** A direct message's participants (sender included), else null. */
  dmUserIds: number[] | null;
  topic: string;
  content: string;
  /** The HTML the source rendered; null: render it on import. */
  renderedContent: string | null;
  dateSent: number;
  client: string;
  lastEditTime: number | null;
  /** Per-user flags (Zulip's bit positions); null: every recipient, read. */
  flags: [userId: number, flags: number][] | null;
}

export interface ArchiveReaction {
  messageId: number;
  userId: number;
  emojiName: string;
  emojiCode: string;
  reactionType: string;
}

export interface ArchiveFile {
  id: number;
  ownerId: number;
  name: string;
  /** Where the bytes are inside the archive (relative to its uploads tree, for Zulip). */
  source: string;
  size: number;
  createTime: number;
  contentType: string | null;
  messageIds: number[];
}

export interface Archive {
  realm: { name: string; stringId: string; description: string; dateCreated: number };
  users: ArchiveUser[];
  channels: ArchiveChannel[];
  messages: ArchiveMessage[];
  reactions: ArchiveReaction[];
  files: ArchiveFile[];
}

/** The subset of Zulip's user_messages flags an import keeps (read, starred, mentions, alert words). */
export const KEPT_FLAGS = 1 | 2 | 8 | 16 | 32 | 64;
