import { createSavedSnippet, deleteSavedSnippet, editSavedSnippet, listSavedSnippets } from "../../actions/saved-snippets";
import { endpoint } from "../endpoint";
import { p } from "../params";

export default [
  endpoint("GET", "/saved_snippets", { params: {}, run: ({ app, user }) => listSavedSnippets(app, user) }),
  endpoint("POST", "/saved_snippets", {
    params: { title: p.str(), content: p.str() },
    run: ({ app, user, args }) => createSavedSnippet(app, user, args),
  }),
  endpoint("PATCH", "/saved_snippets/{saved_snippet_id}", {
    params: { saved_snippet_id: p.path.int(), title: p.str().optional(), content: p.str().optional() },
    run: ({ app, user, args }) => editSavedSnippet(app, user, args.saved_snippet_id, args),
  }),
  endpoint("DELETE", "/saved_snippets/{saved_snippet_id}", {
    params: { saved_snippet_id: p.path.int() },
    run: ({ app, user, args }) => deleteSavedSnippet(app, user, args.saved_snippet_id),
  }),
];
