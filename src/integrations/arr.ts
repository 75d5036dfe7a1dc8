// What Sonarr, Radarr and Lidarr share: an `eventType` field, a Test event when the connection is set
// up, and Health events whose topic is "Health <level>" (Zulip's naming).
import { post, str, type WebhookResult } from "./types";

export function arrCommon(app: string, p: any): WebhookResult | null {
  const event = str(p, "eventType");
  if (event === "Test") return post(event, { topic: `${app} - Test`, content: `${app} is connected; its notifications will arrive here.` });
  if (event === "Health" || event === "HealthRestored") {
    const level = str(p, "level");
    return post(event, { topic: `Health ${level}`, content: `${event === "HealthRestored" ? ":check: Resolved: " : ""}${str(p, "message")}` });
  }
  if (event === "ApplicationUpdate")
    return post(event, { topic: `${app} - Update`, content: `${app} was updated from ${str(p, "previousVersion")} to ${str(p, "newVersion")}.` });
  return null;
}
