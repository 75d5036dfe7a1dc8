import { channelEmailAddress } from "../../actions/channel-email";
import {
  addDefaultStream,
  archiveChannel,
  getStream,
  getStreamId,
  getStreams,
  getStreamsParams,
  getSubscribers,
  listTopics,
  removeDefaultStream,
  updateChannel,
  updateChannelParams,
} from "../../actions/channels";
import { deleteTopic } from "../../actions/message-edits";
import { createChannel, createChannelParams } from "../../actions/subscriptions";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("POST", "/channels/create", {
    params: createChannelParams,
    run: ({ app, realm, user, args }) => createChannel(app, realm, user, args),
  }),
  endpoint("GET", "/streams", {
    params: getStreamsParams,
    run: ({ app, realm, user, args }) => getStreams(app, realm, user, args),
  }),
  endpoint("GET", "/streams/{stream_id}", {
    params: { stream_id: p.path.int() },
    run: ({ app, realm, user, args }) => getStream(app, realm, user, args.stream_id),
  }),
  endpoint("PATCH", "/streams/{stream_id}", {
    params: { stream_id: p.path.int(), ...updateChannelParams },
    run: ({ app, realm, user, args }) => updateChannel(app, realm, user, args.stream_id, args),
  }),
  endpoint("DELETE", "/streams/{stream_id}", {
    params: { stream_id: p.path.int() },
    run: ({ app, realm, user, args }) => archiveChannel(app, realm, user, args.stream_id),
  }),
  endpoint("GET", "/get_stream_id", {
    params: { stream: p.str() },
    run: ({ app, user, args }) => getStreamId(app, user, args.stream),
  }),
  endpoint("GET", "/streams/{stream_id}/email_address", {
    params: { stream_id: p.path.int(), sender_id: p.int({ min: 0 }).optional() },
    run: ({ app, user, args }) => channelEmailAddress(app, user, args.stream_id, args.sender_id),
  }),
  endpoint("GET", "/streams/{stream_id}/members", {
    params: { stream_id: p.path.int() },
    run: ({ app, user, args }) => getSubscribers(app, user, args.stream_id),
  }),
  endpoint("GET", "/users/me/{stream_id}/topics", {
    params: { stream_id: p.path.int(), allow_empty_topic_name: p.bool().optional(false) },
    run: ({ app, user, args }) => listTopics(app, user, args.stream_id, args.allow_empty_topic_name),
  }),
  endpoint("POST", "/streams/{stream_id}/delete_topic", {
    params: { stream_id: p.path.int(), topic_name: p.str() },
    run: ({ app, realm, user, args }) => deleteTopic(app, realm, user, args.stream_id, args.topic_name),
  }),
  endpoint("POST", "/default_streams", {
    params: { stream_id: p.int() },
    run: ({ app, realm, user, args }) => addDefaultStream(app, realm, user, args.stream_id),
  }),
  endpoint("DELETE", "/default_streams", {
    params: { stream_id: p.int() },
    run: ({ app, realm, user, args }) => removeDefaultStream(app, realm, user, args.stream_id),
  }),
];
