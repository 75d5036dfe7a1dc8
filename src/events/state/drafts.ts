import { toApiDraft } from "../../domain/drafts";
import { listDrafts } from "../../store/drafts";
import type { StateBuilder } from "./types";

/** `drafts`: the caller's server drafts. */
export const draftsState: StateBuilder = async ({ app, user }) => ({ drafts: user ? (await listDrafts(app.db, user.id)).map(toApiDraft) : [] });
