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
    run: async ({ app, realm, user, args }) => await createChannel(app, realm, user, args),
  }),
  endpoint("GET", "/streams", {
    params: getStreamsParams,
    run: async ({ app, realm, user, args }) => await getStreams(app, realm, user, args),
  }),
  endpoint("GET", "/streams/{stream_id}", {
    params: { stream_id: p.path.int() },
    run: async ({ app, realm, user, args }) => await getStream(app, realm, user, args.stream_id),
  }),
  endpoint("PATCH", "/streams/{stream_id}", {
    params: { stream_id: p.path.int(), ...updateChannelParams },
    run: async ({ app, realm, user, args }) => await updateChannel(app, realm, user, args.stream_id, args),
  }),
  endpoint("DELETE", "/streams/{stream_id}", {
    params: { stream_id: p.path.int() },
    run: async ({ app, realm, user, args }) => await archiveChannel(app, realm, user, args.stream_id),
  }),
  endpoint("GET", "/get_stream_id", {
    params: { stream: p.str() },
    run: async ({ app, user, args }) => await getStreamId(app, user, args.stream),
  }),
  endpoint("GET", "/streams/{stream_id}/email_address", {
    params: { stream_id: p.path.int(), sender_id: p.int({ min: 0 }).optional() },
    run: async ({ app, user, args }) => await channelEmailAddress(app, user, args.stream_id, args.sender_id),
  }),
  endpoint("GET", "/streams/{stream_id}/members", {
    params: { stream_id: p.path.int() },
    run: async ({ app, user, args }) => await getSubscribers(app, user, args.stream_id),
  }),
  endpoint("GET", "/users/me/{stream_id}/topics", {
    params: { stream_id: p.path.int(), allow_empty_topic_name: p.bool().optional(false) },
    run: async ({ app, user, args }) => await listTopics(app, user, args.stream_id, args.allow_empty_topic_name),
  }),
  endpoint("POST", "/streams/{stream_id}/delete_topic", {
    params: { stream_id: p.path.int(), topic_name: p.str() },
    run: async ({ app, realm, user, args }) => await deleteTopic(app, realm, user, args.stream_id, args.topic_name),
  }),
  endpoint("POST", "/default_streams", {
    params: { stream_id: p.int() },
    run: async ({ app, realm, user, args }) => await addDefaultStream(app, realm, user, args.stream_id),
  }),
  endpoint("DELETE", "/default_streams", {
    params: { stream_id: p.int() },
    run: async ({ app, realm, user, args }) => await removeDefaultStream(app, realm, user, args.stream_id),
  }),
];
