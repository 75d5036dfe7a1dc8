// What the caller supplies to a render, and what comes back. The renderer
// never touches the database: every lookup is a callback, so the caller
// decides visibility (e.g. which channels the sender may link to).
import type { Env } from "markdown-it";
import type { Linkifier } from "./linkifiers.ts";

export interface MentionableUser {
  id: number;
  full_name: string;
  /** A deactivated user can still be named, but the mention is rendered silent (Zulip). Default true. */
  is_active?: boolean;
}

export interface MentionableGroup {
  id: number;
  /** Shown in the mention; for system groups pass the display name ("Administrators"). */
  name: string;
  /** Mentions of a deactivated group are rendered silent (Zulip). Default false. */
  deactivated?: boolean;
}

export interface RenderContext {
  /** e.g. "http://127.0.0.1:9991"; links into it become relative, as in Zulip. */
  realmUrl: string;
  /** For @**Full Name**: case-insensitive match on the full name. */
  userByName(name: string): MentionableUser | null;
  /** For @**Full Name|12** and @**|12**. */
  userById(id: number): MentionableUser | null;
  /** For @*group*: case-insensitive match on the group name. */
  groupByName(name: string): MentionableGroup | null;
  /** For #**channel**, #**channel>topic**, #**channel>topic@123**; return null for channels the sender may not link. */
  streamByName(name: string): { id: number; name: string } | null;
  /** Latest message id of a topic the sender can see; adds Zulip's "/with/<id>" to topic links. Optional. */
  topicLatestMessageId?(streamId: number, topic: string): number | null;
  /** Active or deactivated custom emoji by name; deactivated ones are ignored. */
  realmEmoji(name: string): { id: string; source_url: string; deactivated: boolean } | null;
  /** Realm linkifiers in their configured order (earlier wins). */
  linkifiers: readonly Linkifier[];
}

export interface Rendered {
  html: string;
  /** Users to get the `mentioned` flag (non-silent, outside quotes, active). Expand groups yourself. */
  mentionedUserIds: number[];
  /** Users named by silent mentions: no flag, no notification. */
  silentMentionedUserIds: number[];
  /** Groups mentioned non-silently; their members get the `mentioned` flag. */
  mentionedGroupIds: number[];
  /** @**all** / @**everyone** / @**channel** / @**stream** (non-silent): `stream_wildcard_mentioned`. */
  channelWildcard: boolean;
  /** @**topic** (non-silent): `topic_wildcard_mentioned`. */
  topicWildcard: boolean;
  /** A `/me …` status message (single line, one paragraph). */
  isMeMessage: boolean;
  /** Every href in the output, deduplicated (has:link). */
  links: string[];
  /** An inline image preview was added (has:image). */
  hasImage: boolean;
  /** Path ids of linked uploads ("2/ab/cdef/file.pdf"), to claim as attachments. */
  attachmentPathIds: string[];
  /** attachmentPathIds is not empty (has:attachment). */
  hasAttachment: boolean;
}

/** Per-render state handed to markdown-it's rules through `env`. */
export interface RenderEnv extends Env {
  ctx: RenderContext;
}
