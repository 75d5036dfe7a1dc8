import {
  createSavedSnippet,
  createSavedSnippetParams,
  deleteSavedSnippet,
  editSavedSnippet,
  editSavedSnippetParams,
  listSavedSnippets,
} from "../../actions/saved-snippets";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("GET", "/saved_snippets", { params: {}, run: async ({ app, user }) => await listSavedSnippets(app, user) }),
  endpoint("POST", "/saved_snippets", {
    params: createSavedSnippetParams,
    run: async ({ app, user, args }) => await createSavedSnippet(app, user, args),
  }),
  endpoint("PATCH", "/saved_snippets/{saved_snippet_id}", {
    params: { saved_snippet_id: p.path.int(), ...editSavedSnippetParams },
    run: async ({ app, user, args }) => await editSavedSnippet(app, user, args.saved_snippet_id, args),
  }),
  endpoint("DELETE", "/saved_snippets/{saved_snippet_id}", {
    params: { saved_snippet_id: p.path.int() },
    run: async ({ app, user, args }) => await deleteSavedSnippet(app, user, args.saved_snippet_id),
  }),
];
