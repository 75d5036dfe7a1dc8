import { markAllAsRead, markChannelAsRead, updateMessageFlags, updateMessageFlagsForNarrow } from "../../actions/message-flags";
import { MAX_MESSAGES_PER_FETCH } from "../../actions/message-fetch";
import { endpoint } from "../endpoint";
import { p, t } from "../params";

const op = () => p.enum(["add", "remove"] as const);

export default [
  endpoint("POST", "/messages/flags", {
    params: { messages: p.intList({ max: MAX_MESSAGES_PER_FETCH }), op: op(), flag: p.str() },
    run: ({ app, realm, user, args }) => updateMessageFlags(app, realm, user, args),
  }),
  endpoint("POST", "/messages/flags/narrow", {
    params: {
      anchor: p.str(),
      include_anchor: p.bool().optional(true),
      num_before: p.int({ min: 0 }),
      num_after: p.int({ min: 0 }),
      narrow: p.json(t.any()),
      op: op(),
      flag: p.str(),
    },
    run: ({ app, realm, user, args }) => updateMessageFlagsForNarrow(app, realm, user, args),
  }),
  endpoint("POST", "/mark_all_as_read", {
    params: {},
    run: ({ app, user }) => markAllAsRead(app, user),
  }),
  endpoint("POST", "/mark_stream_as_read", {
    params: { stream_id: p.int() },
    run: ({ app, user, args }) => markChannelAsRead(app, user, args.stream_id),
  }),
  endpoint("POST", "/mark_topic_as_read", {
    params: { stream_id: p.int(), topic_name: p.str() },
    run: ({ app, user, args }) => markChannelAsRead(app, user, args.stream_id, args.topic_name),
  }),
];
