// IFTTT's Webhooks action (and anything else that can post {"topic": ..., "content": ...}).
// `subject` is accepted for `topic`, as older applets send it.
import { PayloadError, post, type Integration } from "./types";

export const ifttt: Integration = {
  name: "ifttt",
  displayName: "IFTTT",
  description: "IFTTT applets (Webhooks action with a JSON body of topic and content)",
  eventTypes: null,
  handle({ payload: p }) {
    const topic = p?.topic ?? p?.subject;
    if (topic === undefined || topic === null) throw new PayloadError("Topic can't be empty");
    if (p?.content === undefined || p?.content === null) throw new PayloadError("Content can't be empty");
    return post("applet", { topic: String(topic), content: String(p.content) });
  },
};
