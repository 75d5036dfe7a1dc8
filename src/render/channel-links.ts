// Links to channels, topics and messages: #**channel**, #**channel>topic**,
// #**channel>topic@123**, rendered as Zulip's `stream`, `stream-topic` and
// `message-link` anchors with relative "/#narrow/…" hrefs.
import type { MarkdownIt, StateInline, Token } from "markdown-it";
import type { RenderEnv } from "./context.ts";
import { escapeText, openTag } from "./html.ts";
import { matchAt, mayStartAt } from "./syntax.ts";
import { channelSlug, encodeHashComponent } from "./urls.ts";

export type ChannelLink = {
  kind: "stream" | "stream-topic" | "message-link";
  streamId: number;
  streamName: string;
  topic: string | null;
  href: string;
};

// Zulip's name for the empty topic (realm_empty_topic_display_name's default).
const EMPTY_TOPIC_DISPLAY_NAME = "general chat";

const MESSAGE_RE = /#\*\*([^*>]+)>([^*]*)@(\d+)\*\*/y;
const TOPIC_RE = /#\*\*([^*>]+)>([^*]*)\*\*/y;
const CHANNEL_RE = /#\*\*([^*]+)\*\*/y;

const narrow = (stream: { id: number; name: string }, topic?: string): string =>
  `/#narrow/channel/${channelSlug(stream.id, stream.name)}` + (topic === undefined ? "" : `/topic/${encodeHashComponent(topic)}`);

/** The most specific syntax whose channel exists wins; "#**a>b**" may still name a channel called "a>b". */
function resolve(state: StateInline): { link: ChannelLink; length: number } | null {
  const { ctx } = state.env as RenderEnv;
  const message = matchAt(MESSAGE_RE, state);
  const inMessage = message && ctx.streamByName(message[1]!);
  if (message && inMessage) {
    const topic = message[2]!;
    const link: ChannelLink = {
      kind: "message-link",
      streamId: inMessage.id,
      streamName: inMessage.name,
      topic,
      href: `${narrow(inMessage, topic)}/near/${message[3]}`,
    };
    return { link, length: message[0].length };
  }
  const topicMatch = matchAt(TOPIC_RE, state);
  const inTopic = topicMatch && ctx.streamByName(topicMatch[1]!);
  if (topicMatch && inTopic) {
    const topic = topicMatch[2]!;
    const latest = ctx.topicLatestMessageId?.(inTopic.id, topic);
    const href = narrow(inTopic, topic) + (latest != null ? `/with/${latest}` : "");
    return { link: { kind: "stream-topic", streamId: inTopic.id, streamName: inTopic.name, topic, href }, length: topicMatch[0].length };
  }
  const channel = matchAt(CHANNEL_RE, state);
  const stream = channel && ctx.streamByName(channel[1]!);
  if (channel && stream) {
    return { link: { kind: "stream", streamId: stream.id, streamName: stream.name, topic: null, href: narrow(stream) }, length: channel[0].length };
  }
  return null;
}

function channelLinkRule(state: StateInline, silentMode: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x23 /* # */ || state.src.charCodeAt(state.pos + 1) !== 0x2a /* * */) return false;
  if (!mayStartAt(state.src, state.pos)) return false;
  const found = resolve(state);
  if (!found) return false;
  if (!silentMode) state.push("zulip_channel_link", "a", 0).meta = found.link;
  state.pos += found.length;
  return true;
}

function channelLinkHtml(link: ChannelLink): string {
  const topic = link.topic === null ? "" : link.topic === "" ? " &gt; <em>" + EMPTY_TOPIC_DISPLAY_NAME + "</em>" : " &gt; " + escapeText(link.topic);
  const suffix = link.kind === "message-link" ? " @ 💬" : "";
  // Zulip deprecated data-stream-id on message links and never emits it there.
  const streamId = link.kind === "message-link" ? undefined : String(link.streamId);
  return openTag("a", { class: link.kind, "data-stream-id": streamId, href: link.href }) + "#" + escapeText(link.streamName) + topic + suffix + "</a>";
}

export function channelLinksPlugin(md: MarkdownIt): void {
  md.inline.ruler.before("emphasis", "zulip_channel_link", channelLinkRule);
  md.renderer.rules.zulip_channel_link = (tokens: Token[], idx: number) => channelLinkHtml(tokens[idx]!.meta as ChannelLink);
}
