import { listAttachments, removeAttachment, temporaryUploadUrl, uploadFile } from "../../actions/attachments";
import type { App } from "../../context";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

/** An upload's body: the largest file allowed plus room for the multipart framing. */
export const uploadBodyBytes = (app: App) => (app.config.limits.maxFileUploadMib + 1) * 1024 * 1024;

export default [
  endpoint("POST", "/user_uploads", {
    params: {},
    body: "upload",
    run: ({ app, realm, user, files }) => uploadFile(app, realm, user, files),
  }),
  endpoint("GET", "/user_uploads/{realm_id_str}/{filename}", {
    params: { realm_id_str: p.path.str(), filename: p.path.rest() },
    run: ({ app, realm, user, args }) => temporaryUploadUrl(app, realm, user, args.realm_id_str, args.filename),
  }),
  endpoint("GET", "/attachments", { params: {}, run: ({ app, user }) => listAttachments(app, user) }),
  endpoint("DELETE", "/attachments/{attachment_id}", {
    params: { attachment_id: p.path.int() },
    run: ({ app, user, args }) => removeAttachment(app, user, args.attachment_id),
  }),
];
