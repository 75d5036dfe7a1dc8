// confab's Markdown renderer: Zulip's message Markdown dialect to safe HTML.
// Pure functions; callers pass every lookup in a RenderContext.
export type { MentionableGroup, MentionableUser, RenderContext, Rendered } from "./context.ts";
export { emojiByCode, emojiByName, emojiCodeToNames, emojiDataDocument, type UnicodeEmoji } from "./emoji.ts";
export { expandUrlTemplate, type Linkifier, topicLinks } from "./linkifiers.ts";
export { renderMarkdown } from "./markdown.ts";
export { textForSearch } from "./search-text.ts";
