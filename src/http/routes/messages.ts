import { fetchParams, getMessage, getMessageParams, getMessages, matchesNarrow, narrowParam } from "../../actions/message-fetch";
import { deleteMessage, editMessage, editParams, messageHistory } from "../../actions/message-edits";
import { sendMessage, sendParams } from "../../actions/messages";
import { addReaction, addReactionParams, removeReaction, removeReactionParams } from "../../actions/reactions";
import { readReceipts } from "../../actions/read-receipts";
import { renderPreview } from "../../actions/render";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("POST", "/messages", {
    params: sendParams,
    run: ({ app, realm, user, args }) => sendMessage(app, realm, user, args),
  }),
  endpoint("GET", "/messages", {
    auth: "optional",
    params: fetchParams,
    run: ({ app, realm, user, args }) => getMessages(app, realm, user, args),
  }),
  endpoint("GET", "/messages/{message_id}", {
    auth: "optional",
    params: { message_id: p.path.int(), ...getMessageParams },
    run: ({ app, realm, user, args }) => getMessage(app, realm, user, args.message_id, args),
  }),
  endpoint("GET", "/messages/matches_narrow", {
    params: { msg_ids: p.intList(), narrow: narrowParam() },
    run: ({ app, realm, user, args }) => matchesNarrow(app, realm, user, args.msg_ids, args.narrow),
  }),
  endpoint("POST", "/messages/render", {
    params: { content: p.str() },
    run: ({ app, realm, user, args }) => renderPreview(app, realm, user, args.content),
  }),
  endpoint("PATCH", "/messages/{message_id}", {
    params: { message_id: p.path.int(), ...editParams },
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
    params: { message_id: p.path.int(), ...addReactionParams },
    run: ({ app, realm, user, args }) => addReaction(app, realm, user, args.message_id, args),
  }),
  endpoint("DELETE", "/messages/{message_id}/reactions", {
    params: { message_id: p.path.int(), ...removeReactionParams },
    run: ({ app, realm, user, args }) => removeReaction(app, realm, user, args.message_id, args),
  }),
  endpoint("GET", "/messages/{message_id}/read_receipts", {
    params: { message_id: p.path.int() },
    run: ({ app, realm, user, args }) => readReceipts(app, realm, user, args.message_id),
  }),
];
