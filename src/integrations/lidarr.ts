// Lidarr (music): Connect → Webhook. Topic: the artist's name.
// https://wiki.servarr.com/lidarr/settings#connections
import { arrCommon } from "./arr";
import { esc, optList, post, str, unsupported, type Integration } from "./types";

export const lidarr: Integration = {
  name: "lidarr",
  displayName: "Lidarr",
  description: "Lidarr: albums grabbed or imported, tracks renamed or retagged; health",
  eventTypes: ["Test", "Health", "HealthRestored", "ApplicationUpdate", "Grab", "Download", "Rename", "Retag"],
  handle({ payload: p }) {
    const common = arrCommon("Lidarr", p);
    if (common) return common;
    const event = str(p, "eventType");
    const artist = str(p, "artist", "name");
    const albums = optList(p, "albums").map((a: any) => `**${esc(String(a?.title ?? "?"))}**`);
    const what = albums.length ? `${albums.join(", ")} by ${esc(artist)}` : esc(artist);
    const say = (content: string) => post(event, { topic: artist, content });
    switch (event) {
      case "Grab":
        return say(`${what} ${albums.length > 1 ? "were" : "was"} grabbed.`);
      case "Download":
        return say(`${what} ${albums.length > 1 ? "were" : "was"} ${p.isUpgrade ? "upgraded" : "imported"}.`);
      case "Rename":
        return say(`Tracks by ${esc(artist)} were renamed.`);
      case "Retag":
        return say(`Tracks by ${esc(artist)} were retagged.`);
      default:
        return unsupported(event);
    }
  },
};
