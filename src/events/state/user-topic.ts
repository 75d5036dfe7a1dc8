import { findChannel } from "../../store/channels";
import { listUserTopics } from "../../store/topics";
import type { StateBuilder } from "./types";
import { mapInOrder } from "../../lib/in-order";

/** The `user_topic` fetch type: the user's muted, unmuted and followed topics. */
export const userTopicState: StateBuilder = async ({ app, user }) => ({
  user_topics: user
    ? (await listUserTopics(app.db, user.id)).map((t) => ({
        stream_id: t.channelId,
        topic_name: t.topic,
        last_updated: t.lastUpdated,
        visibility_policy: t.visibilityPolicy,
      }))
    : [],
});

/** The deprecated `muted_topics` fetch type: [channel name, topic, timestamp] of muted topics. */
export const mutedTopicsState: StateBuilder = async ({ app, user }) => ({
  muted_topics: user
    ? await mapInOrder(
        (await listUserTopics(app.db, user.id)).filter((t) => t.visibilityPolicy === 1),
        async (t) => [(await findChannel(app.db, t.channelId))?.name ?? "", t.topic, t.lastUpdated],
      )
    : [],
});
