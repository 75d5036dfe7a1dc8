import { getMessage, getMessages, matchesNarrow, MAX_MESSAGES_PER_FETCH } from "../../actions/message-fetch";
import { deleteMessage, editMessage, messageHistory } from "../../actions/message-edits";
import { sendMessage } from "../../actions/messages";
import { addReaction, removeReaction } from "../../actions/reactions";
import { readReceipts } from "../../actions/read-receipts";
import { renderPreview } from "../../actions/render";
import { endpoint } from "../endpoint";
import { p, t } from "../params";

/** A narrow: a JSON list of {operator, operand, negated} objects or [operator, operand] pairs (checked by domain/narrow.ts). */
const narrow = () => p.json(t.any());

export default [
  endpoint("POST", "/messages", {
    params: {
      type: p.enum(["stream", "channel", "private", "direct"] as const),
      to: p.jsonOrText(),
      content: p.str(),
      topic: p.str().optional().alias("subject"),
      queue_id: p.str().optional(),
      local_id: p.str().optional(),
      read_by_sender: p.bool().optional(),
    },
    run: ({ app, realm, user, args }) => sendMessage(app, realm, user, args),
  }),
  endpoint("GET", "/messages", {
    auth: "optional",
    params: {
      anchor: p.str().optional(),
      include_anchor: p.bool().optional(),
      num_before: p.int({ min: 0 }).optional(),
      num_after: p.int({ min: 0 }).optional(),
      narrow: narrow().optional(() => []),
      client_gravatar: p.bool().optional(true),
      apply_markdown: p.bool().optional(true),
      use_first_unread_anchor: p.bool().optional(),
      message_ids: p.json(t.list(t.int({ min: 0 }), { max: MAX_MESSAGES_PER_FETCH, unique: true })).optional(),
      allow_empty_topic_name: p.bool().optional(false),
      anchor_date: p.str().optional(),
      exclude_thread_replies: p.bool().optional(false),
    },
    run: ({ app, realm, user, args }) => getMessages(app, realm, user, args),
  }),
  endpoint("GET", "/messages/{message_id}", {
    auth: "optional",
    params: { message_id: p.path.int(), apply_markdown: p.bool().optional(true), allow_empty_topic_name: p.bool().optional(false) },
    run: ({ app, realm, user, args }) => getMessage(app, realm, user, args.message_id, args),
  }),
  endpoint("GET", "/messages/matches_narrow", {
    params: { msg_ids: p.intList(), narrow: narrow() },
    run: ({ app, realm, user, args }) => matchesNarrow(app, realm, user, args.msg_ids, args.narrow),
  }),
  endpoint("POST", "/messages/render", {
    params: { content: p.str() },
    run: ({ app, realm, user, args }) => renderPreview(app, realm, user, args.content),
  }),
  endpoint("PATCH", "/messages/{message_id}", {
    params: {
      message_id: p.path.int(),
      topic: p.str().optional().alias("subject"),
      propagate_mode: p.enum(["change_one", "change_later", "change_all"] as const).optional("change_one" as const),
      send_notification_to_old_thread: p.bool().optional(false),
      send_notification_to_new_thread: p.bool().optional(true),
      content: p.str().optional(),
      prev_content_sha256: p.str().optional(),
      stream_id: p.int().optional(),
    },
    run: ({ app, realm, user, args }) => editMessage(app, realm, user, args.message_id, args),
  }),
  endpoint("DELETE", "/messages/{message_id}", {
    params: { message_id: p.path.int() },
    run: ({ app, realm, user, args }) => deleteMessage(app, realm, user, args.message_id),
  }),
  endpoint("GET", "/messages/{message_id}/history", {
    params: { message_id: p.path.int(), allow_empty_topic_name: p.bool().optional(false) },
    run: ({ app, realm, user, args }) => messageHistory(app, realm, user, args.message_id, args.allow_empty_topic_name),
  }),
  endpoint("POST", "/messages/{message_id}/reactions", {
    params: { message_id: p.path.int(), emoji_name: p.str(), emoji_code: p.str().optional(), reaction_type: p.str().optional() },
    run: ({ app, realm, user, args }) => addReaction(app, realm, user, args.message_id, args),
  }),
  endpoint("DELETE", "/messages/{message_id}/reactions", {
    params: { message_id: p.path.int(), emoji_name: p.str().optional(), emoji_code: p.str().optional(), reaction_type: p.str().optional() },
    run: ({ app, realm, user, args }) => removeReaction(app, realm, user, args.message_id, args),
  }),
  endpoint("GET", "/messages/{message_id}/read_receipts", {
    params: { message_id: p.path.int() },
    run: ({ app, realm, user, args }) => readReceipts(app, realm, user, args.message_id),
  }),
];
