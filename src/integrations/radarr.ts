// Radarr (movies): Connect → Webhook. Topic: the movie's title.
// https://wiki.servarr.com/radarr/settings#connections
import { arrCommon } from "./arr";
import { esc, optStr, post, str, unsupported, type Integration } from "./types";

export const radarr: Integration = {
  name: "radarr",
  displayName: "Radarr",
  description: "Radarr: movies grabbed, imported, upgraded, renamed, added or deleted; health",
  eventTypes: ["Test", "Health", "HealthRestored", "ApplicationUpdate", "Grab", "Download", "Rename", "MovieAdded", "MovieDelete", "MovieFileDelete"],
  handle({ payload: p }) {
    const common = arrCommon("Radarr", p);
    if (common) return common;
    const event = str(p, "eventType");
    const title = str(p, "movie", "title");
    const movie = `**${esc(title)}**${optStr(p, "movie", "year") ? ` (${p.movie.year})` : ""}`;
    const say = (content: string) => post(event, { topic: title, content });
    switch (event) {
      case "Grab":
        return say(`${movie} was grabbed${optStr(p, "release", "quality") ? ` (${p.release.quality})` : ""}.`);
      case "Download":
        return say(p.isUpgrade ? `${movie} was upgraded${optStr(p, "movieFile", "quality") ? ` to ${p.movieFile.quality}` : ""}.` : `${movie} was imported.`);
      case "Rename":
        return say(`${movie} was renamed.`);
      case "MovieAdded":
        return say(`${movie} was added.`);
      case "MovieDelete":
        return say(`${movie} was deleted.`);
      case "MovieFileDelete":
        return say(`A file of ${movie} was deleted${p.deleteReason === "upgrade" ? " for a quality upgrade" : ""}.`);
      default:
        return unsupported(event);
    }
  },
};
