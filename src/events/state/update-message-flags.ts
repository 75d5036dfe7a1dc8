import { recentPrivateConversations, unreadMessages } from "../../serializers/message-flags";
import { starredIds } from "../../store/message-flags";
import type { StateBuilder } from "./types";

const NO_UNREADS = { count: 0, pms: [], streams: [], huddles: [], mentions: [], old_unreads_missing: false };

/** The `update_message_flags` fetch type: unread counts by conversation. */
export const updateMessageFlagsState: StateBuilder = async ({ app, user }) => ({ unread_msgs: user ? await unreadMessages(app, user) : NO_UNREADS });

/** The `starred_messages` fetch type. */
export const starredMessagesState: StateBuilder = async ({ app, user }) => ({ starred_messages: user ? await starredIds(app.db, user.id) : [] });

/** The `recent_private_conversations` fetch type. */
export const recentPrivateConversationsState: StateBuilder = async ({ app, user }) => ({
  recent_private_conversations: user ? await recentPrivateConversations(app, user) : [],
});
