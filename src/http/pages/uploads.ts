// Uploaded files at their URLs (/user_uploads/<path_id>), for API clients (HTTP Basic, as Zulip allows
// on this path), the web client (its session cookie) and for anyone holding a temporary URL. Access is decided in actions/attachments.ts.
import { accessUpload, uploadFilePath, uploadFromToken } from "../../actions/attachments";
import type { App } from "../../context";
import type { AttachmentRow } from "../../db/schema";
import { uploadHeaders } from "../../domain/uploads";
import { pageViewer } from "../auth";
import { realmForHost } from "../realm";
import type { Page } from "./page";

const html = (status: number, text: string) =>
  new Response(`<p>${text}</p>`, { status, headers: { "content-type": "text/html; charset=utf-8", "x-content-type-options": "nosniff" } });

const file = (app: App, a: AttachmentRow, download: boolean) => new Response(Bun.file(uploadFilePath(app, a.pathId)), { headers: uploadHeaders(a, download) });

/** /user_uploads/<realm id>/<rest>: the viewer is the API user of the Authorization header or the web client's session, if any. */
const serve =
  (download: boolean): Page["handle"] =>
  async (app, request, params, ip) => {
    const realm = await realmForHost(app, request.headers.get("host"));
    const viewer = await pageViewer(app, realm, request, ip);
    let pathId: string;
    try {
      pathId = `${params.realm}/${params["*"]!.split("/").map(decodeURIComponent).join("/")}`;
    } catch {
      return html(404, "File not found.");
    }
    const access = await accessUpload(app, realm, viewer, pathId);
    if (!access.ok) return access.status === 404 ? html(404, "File not found.") : html(403, "You are not authorized to view this file.");
    return file(app, access.attachment, download);
  };

/** /user_uploads/temporary/<token>/<filename>: a URL from GET /api/v1/user_uploads/..., for a minute. */
const serveTemporary: Page["handle"] = async (app, _request, { token, filename }) => {
  let name: string;
  try {
    name = decodeURIComponent(filename ?? "");
  } catch {
    return html(404, "File not found.");
  }
  const a = await uploadFromToken(app, token ?? "", name);
  return a ? file(app, a, false) : html(404, "File not found.");
};

export default [
  { method: "GET", path: "/user_uploads/temporary/:token/:filename", handle: serveTemporary },
  { method: "GET", path: "/user_uploads/download/:realm/*", handle: serve(true) },
  { method: "GET", path: "/user_uploads/:realm/*", handle: serve(false) },
] satisfies Page[];
