// Finished data exports, at the export_url of GET /export/realm
// (/user_avatars/exports/<realm id>/<random>/<file>.tar.gz). Unlike avatars they hold the whole
// organization, so the URL alone is not enough: the request must come from one of its administrators.
import { readExportFile } from "../../actions/realm-exports";
import { notLoggedIn } from "../../domain/errors";
import { pageViewer } from "../auth";
import { realmForHost } from "../realm";
import type { Page } from "./page";

const serve: Page["handle"] = async (app, request, { realm: realmId, random, file }, ip) => {
  const realm = await realmForHost(app, request.headers.get("host"));
  const user = await pageViewer(app, realm, request, ip);
  if (!user) throw notLoggedIn();
  const path = realmId === String(realm.id) ? await readExportFile(app, realm, user, `${realmId}/${random}/${file}`) : null;
  if (!path) return new Response("Not Found", { status: 404 });
  return new Response(Bun.file(path), {
    headers: {
      "content-type": "application/gzip",
      "content-disposition": `attachment; filename="${file}"`,
      "x-content-type-options": "nosniff",
      "cache-control": "private, no-store",
    },
  });
};

export default [{ method: "GET", path: "/user_avatars/exports/:realm/:random/:file", handle: serve }] satisfies Page[];
