// Sonarr (TV series): Connect → Webhook. Topic: the series' title.
// https://wiki.servarr.com/sonarr/settings#connections
import { arrCommon } from "./arr";
import { esc, list, num, optStr, post, str, unsupported, type Integration } from "./types";

const episode = (p: any) => {
  const e = list(p, "episodes")[0];
  const n = (k: string) => String(num(e, k)).padStart(2, "0");
  return `**${esc(str(p, "series", "title"))}** S${n("seasonNumber")}E${n("episodeNumber")} ${esc(optStr(e, "title") ?? "")}`.trimEnd();
};

export const sonarr: Integration = {
  name: "sonarr",
  displayName: "Sonarr",
  description: "Sonarr: episodes grabbed, imported, upgraded, renamed or deleted; series deleted; health",
  eventTypes: ["Test", "Health", "HealthRestored", "ApplicationUpdate", "Grab", "Download", "Rename", "EpisodeFileDelete", "SeriesAdd", "SeriesDelete"],
  handle({ payload: p }) {
    const common = arrCommon("Sonarr", p);
    if (common) return common;
    const event = str(p, "eventType");
    const say = (content: string) => post(event, { topic: str(p, "series", "title"), content });
    switch (event) {
      case "Grab":
        return say(`${episode(p)} was grabbed${optStr(p, "release", "quality") ? ` (${p.release.quality})` : ""}.`);
      case "Download":
        return say(
          p.isUpgrade
            ? `${episode(p)} was upgraded${optStr(p, "episodeFile", "quality") ? ` to ${p.episodeFile.quality}` : ""}.`
            : `${episode(p)} was imported.`,
        );
      case "Rename":
        return say(`Episodes of **${esc(str(p, "series", "title"))}** were renamed.`);
      case "EpisodeFileDelete":
        return say(`${episode(p)} was deleted${p.deleteReason === "upgrade" ? " for a quality upgrade" : ""}.`);
      case "SeriesAdd":
        return say(`**${esc(str(p, "series", "title"))}** was added.`);
      case "SeriesDelete":
        return say(`**${esc(str(p, "series", "title"))}** was deleted.`);
      default:
        return unsupported(event);
    }
  },
};
