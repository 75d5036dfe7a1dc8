import { toApiLinkifier } from "../../domain/linkifiers";
import { listLinkifiers } from "../../store/linkifiers";
import type { StateBuilder } from "./types";

/** `realm_linkifiers`: empty for clients without linkifier_url_template, which cannot use them. */
export const linkifiersState: StateBuilder = async ({ app, realm, opts }) => ({
  realm_linkifiers: opts.capabilities.linkifier_url_template ? (await listLinkifiers(app.db, realm.id)).map(toApiLinkifier) : [],
});
