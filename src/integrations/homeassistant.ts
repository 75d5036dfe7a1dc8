// Home Assistant's RESTful notify platform posting {"message": "...", "topic": "..."} (topic optional).
// https://www.home-assistant.io/integrations/notify.rest/
import { optStr, post, str, type Integration } from "./types";

export const homeassistant: Integration = {
  name: "homeassistant",
  displayName: "Home Assistant",
  description: "Home Assistant notifications (notify.rest with a message and an optional topic)",
  eventTypes: null,
  handle({ payload: p }) {
    return post("notification", { topic: optStr(p, "topic") || "homeassistant", content: str(p, "message") });
  },
};
