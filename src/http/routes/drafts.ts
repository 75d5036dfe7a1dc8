import { createDrafts, deleteDraft, editDraft, listDrafts } from "../../actions/drafts";
import type { DraftInput } from "../../domain/drafts";
import { endpoint } from "../endpoint";
import { p, t } from "../../domain/params";

/** The contract's Draft object; `id` may ride along (clients echo it back) and is ignored. */
const draft = t.object({
  id: t.optional(t.int()),
  type: t.enum(["", "stream", "private"] as const),
  to: t.list(t.int()),
  topic: t.str(),
  content: t.str(),
  timestamp: t.optional(t.int()),
});

export default [
  endpoint("GET", "/drafts", { params: {}, run: ({ app, user }) => listDrafts(app, user) }),
  endpoint("POST", "/drafts", {
    params: { drafts: p.json(t.list(draft)).optional(() => []) },
    run: ({ app, user, args }) => createDrafts(app, user, args.drafts as DraftInput[]),
  }),
  endpoint("PATCH", "/drafts/{draft_id}", {
    params: { draft_id: p.path.int(), draft: p.json(draft) },
    run: ({ app, user, args }) => editDraft(app, user, args.draft_id, args.draft as DraftInput),
  }),
  endpoint("DELETE", "/drafts/{draft_id}", {
    params: { draft_id: p.path.int() },
    run: ({ app, user, args }) => deleteDraft(app, user, args.draft_id),
  }),
];
