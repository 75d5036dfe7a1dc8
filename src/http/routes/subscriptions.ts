import {
  isUserSubscribed,
  listSubscriptions,
  mutedTopicParams,
  muteTopicLegacy,
  setSubscriptionProperties,
  setTopicVisibility,
  subscribe,
  subscribeParams,
  topicVisibilityParams,
  unsubscribe,
  unsubscribeParams,
  updateSubscriptions,
  updateSubscriptionsParams,
} from "../../actions/subscriptions";
import { invalid } from "../../domain/errors";
import { endpoint } from "../endpoint";
import { p, Param, t } from "../../domain/params";

/** include_subscribers: true, false or "partial", as bare words or JSON. */
const includeSubscribers = () =>
  new Param<boolean | "partial">((raw, n) => {
    const s = String(raw).replace(/^"(.*)"$/, "$1");
    if (s === "true" || s === "false") return s === "true";
    if (s === "partial") return s;
    throw invalid(n);
  }, "boolean or partial");

export default [
  endpoint("GET", "/users/me/subscriptions", {
    params: { include_subscribers: includeSubscribers().optional(false) },
    run: ({ app, realm, user, args }) => listSubscriptions(app, realm, user, args.include_subscribers !== false),
  }),
  endpoint("POST", "/users/me/subscriptions", {
    params: subscribeParams,
    run: ({ app, realm, user, args }) => subscribe(app, realm, user, args),
  }),
  endpoint("PATCH", "/users/me/subscriptions", {
    params: updateSubscriptionsParams,
    run: ({ app, realm, user, args }) => updateSubscriptions(app, realm, user, args),
  }),
  endpoint("DELETE", "/users/me/subscriptions", {
    params: unsubscribeParams,
    run: ({ app, realm, user, args }) => unsubscribe(app, realm, user, args),
  }),
  endpoint("POST", "/users/me/subscriptions/properties", {
    params: { subscription_data: p.json(t.list(t.object({ stream_id: t.int(), property: t.str(), value: t.any() }))) },
    run: ({ app, user, args }) => setSubscriptionProperties(app, user, args.subscription_data),
  }),
  endpoint("GET", "/users/{user_id}/subscriptions/{stream_id}", {
    params: { user_id: p.path.int(), stream_id: p.path.int() },
    run: ({ app, user, args }) => isUserSubscribed(app, user, args.user_id, args.stream_id),
  }),
  endpoint("PATCH", "/users/me/subscriptions/muted_topics", {
    params: mutedTopicParams,
    run: ({ app, user, args }) => muteTopicLegacy(app, user, args),
  }),
  endpoint("POST", "/user_topics", {
    params: topicVisibilityParams,
    run: ({ app, user, args }) => setTopicVisibility(app, user, args),
  }),
];
