import { toApiSnippet } from "../../serializers/saved-snippets";
import { listSnippets } from "../../store/saved-snippets";
import type { StateBuilder } from "./types";

/** `saved_snippets`: the caller's saved snippets (level 297). */
export const savedSnippetsState: StateBuilder = async ({ app, user }) => ({
  saved_snippets: user ? (await listSnippets(app.db, user.id)).map(toApiSnippet) : [],
});
