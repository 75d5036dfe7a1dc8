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
  endpoint("GET", "/saved_snippets", { params: {}, run: ({ app, user }) => listSavedSnippets(app, user) }),
  endpoint("POST", "/saved_snippets", {
    params: createSavedSnippetParams,
    run: ({ app, user, args }) => createSavedSnippet(app, user, args),
  }),
  endpoint("PATCH", "/saved_snippets/{saved_snippet_id}", {
    params: { saved_snippet_id: p.path.int(), ...editSavedSnippetParams },
    run: ({ app, user, args }) => editSavedSnippet(app, user, args.saved_snippet_id, args),
  }),
  endpoint("DELETE", "/saved_snippets/{saved_snippet_id}", {
    params: { saved_snippet_id: p.path.int() },
    run: ({ app, user, args }) => deleteSavedSnippet(app, user, args.saved_snippet_id),
  }),
];
