import { getMessage, getMessages, matchesNarrow } from "../../actions/message-fetch";
import { sendMessage } from "../../actions/messages";
import { renderPreview } from "../../actions/render";
import { endpoint } from "../endpoint";
import { p, t } from "../params";

/** A narrow: a JSON list of {operator, operand, negated} objects or [operator, operand] pairs (checked by domain/narrow.ts). */
const narrow = () => p.json(t.any());

export default [
  endpoint("POST", "/messages", {
    params: {
      type: p.enum(["stream", "channel", "private", "direct"] as const),
      to: p.str(),
      content: p.str(),
      topic: p.str().optional(),
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
      message_ids: p.json(t.list(t.int({ min: 0 }))).optional(),
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
];
