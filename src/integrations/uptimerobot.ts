// UptimeRobot's webhook alert contact, with the JSON body Zulip's setup asks for:
// {"monitor_url": "*monitorURL*", "monitor_friendly_name": "*monitorFriendlyName*", "alert_type": "*alertType*",
//  "alert_type_friendly_name": "*alertTypeFriendlyName*", "alert_details": "*alertDetails*", "alert_friendly_duration": "*alertFriendlyDuration*"}
import { esc, post, str, optStr, unsupported, type Integration } from "./types";

export const uptimerobot: Integration = {
  name: "uptimerobot",
  displayName: "UptimeRobot",
  description: "UptimeRobot monitors going down and coming back up",
  eventTypes: ["up", "down"],
  handle({ payload: p }) {
    const name = str(p, "monitor_friendly_name");
    const kind = str(p, "alert_type_friendly_name");
    const url = optStr(p, "monitor_url") ?? "";
    const details = optStr(p, "alert_details");
    const subject = `**${esc(name)}** (${url})`;
    if (kind === "Down") return post("down", { topic: name, content: `:red_circle: ${subject} is **down**${details ? `: ${details}` : "."}` });
    if (kind === "Up") {
      const duration = optStr(p, "alert_friendly_duration");
      return post("up", {
        topic: name,
        content: `:green_circle: ${subject} is **back up**${details ? ` (${details})` : ""}.${duration ? ` It was down for ${duration}.` : ""}`,
      });
    }
    return unsupported(kind);
  },
};
