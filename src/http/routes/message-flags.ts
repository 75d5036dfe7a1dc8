import {
  flagsForNarrowParams,
  flagsParams,
  markAllAsRead,
  markChannelAsRead,
  updateMessageFlags,
  updateMessageFlagsForNarrow,
} from "../../actions/message-flags";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("POST", "/messages/flags", {
    params: flagsParams,
    run: ({ app, realm, user, args }) => updateMessageFlags(app, realm, user, args),
  }),
  endpoint("POST", "/messages/flags/narrow", {
    params: flagsForNarrowParams,
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
