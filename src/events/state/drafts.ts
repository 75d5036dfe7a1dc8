import { toApiDraft } from "../../domain/drafts";
import { listDrafts } from "../../store/drafts";
import type { StateBuilder } from "./types";

/** `drafts`: the caller's server drafts. */
export const draftsState: StateBuilder = ({ app, user }) => ({ drafts: user ? listDrafts(app.db, user.id).map(toApiDraft) : [] });
