// Uploaded avatars, at the URLs avatarUrl() gives (/user_avatars/<realm id>/<user id>.png?version=N).
// Like Zulip's, they are served without authentication: the URL is what clients put in <img>.
import { readAvatar } from "../../actions/avatars";
import { readRealmEmoji } from "../../actions/realm-emoji";
import { readRealmIcon } from "../../actions/realm-icon";
import { notLoggedIn } from "../../domain/errors";
import { spectatorsAllowed } from "../../domain/realm-access";
import { avatarUrl } from "../../domain/users";
import { findUserByEmail, findUserById } from "../../store/users";
import { pageViewer } from "../auth";
import { realmForHost } from "../realm";
import type { Page } from "./page";

/** An image at a versioned URL (the version changes with every new picture, so a long cache is safe). */
const image = (found: { bytes: Uint8Array; type: string } | null) =>
  found
    ? new Response(found.bytes, {
        headers: { "content-type": found.type, "cache-control": "public, max-age=31536000, immutable", "x-content-type-options": "nosniff" },
      })
    : new Response("Not Found", { status: 404 });

const realmIdOf = (realm: string | undefined) => (/^\d+$/.test(realm ?? "") ? Number(realm) : null);

const serve: Page["handle"] = (app, _request, { realm, file }) => {
  const m = /^(\d+)\.png$/.exec(file ?? "");
  const realmId = realmIdOf(realm);
  return image(m && realmId !== null ? readAvatar(app, realmId, Number(m[1])) : null);
};

/** The uploaded organization icon, at realm_icon_url (/user_avatars/<realm id>/realm/icon.png?version=N). */
const serveIcon: Page["handle"] = (app, _request, { realm }) => {
  const realmId = realmIdOf(realm);
  return image(realmId !== null ? readRealmIcon(app, realmId) : null);
};

/** Custom emoji images, at the source_url of realm emoji (/user_avatars/<realm id>/emoji/images/<file>). */
const serveEmoji: Page["handle"] = (app, _request, { realm, file }) => {
  const realmId = realmIdOf(realm);
  return image(realmId !== null ? readRealmEmoji(app, realmId, file ?? "") : null);
};

/**
 * Zulip's /avatar/<user id or email>[/medium]: a redirect to the user's avatar, for clients that only
 * know the id. Callers authenticate like API clients (HTTP Basic) or with the web client's session; without credentials only in an
 * organization open to spectators.
 */
const redirectToAvatar: Page["handle"] = async (app, request, { who }, ip) => {
  const realm = await realmForHost(app, request.headers.get("host"));
  if (!(await pageViewer(app, realm, request, ip)) && !spectatorsAllowed(realm)) throw notLoggedIn();
  const key = decodeURIComponent(who ?? "");
  const user = /^\d+$/.test(key) ? await findUserById(app.db, Number(key)) : await findUserByEmail(app.db, realm.id, key);
  if (!user || user.realmId !== realm.id) return new Response("Not Found", { status: 404 });
  return new Response(null, { status: 302, headers: { location: avatarUrl(user, app.config.externalUrl), "cache-control": "private, max-age=60" } });
};

export default [
  { method: "GET", path: "/avatar/:who", handle: redirectToAvatar },
  { method: "GET", path: "/avatar/:who/medium", handle: redirectToAvatar },
  { method: "GET", path: "/user_avatars/:realm/:file", handle: serve },
  { method: "GET", path: "/user_avatars/:realm/emoji/images/:file", handle: serveEmoji },
  { method: "GET", path: "/user_avatars/:realm/realm/icon.png", handle: serveIcon },
] satisfies Page[];
