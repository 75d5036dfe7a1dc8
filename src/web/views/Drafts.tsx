import { api } from "../api/client";
import { ago } from "../ui/format";
import { sayError } from "../ui/toast";
import { drafts, subs, userName } from "../store/state";
import { restoreDraft } from "./Compose";

export function Drafts() {
  const list = [...drafts.value.values()].sort((a, b) => b.timestamp - a.timestamp);
  return (
    <section class="page drafts" aria-labelledby="drafts-title" data-testid="drafts">
      <div class="page-head">
        <h1 id="drafts-title">Drafts</h1>
      </div>
      {!list.length && <p class="empty-page">No drafts. Text you type in the compose box is saved here until you send it.</p>}
      <ul class="draft-list">
        {list.map((d) => (
          <li key={d.id} class="draft" data-testid="draft">
            <div class="draft-head">
              <strong>
                {d.type === "stream"
                  ? `#${subs.value.get(d.to[0]!)?.name ?? "?"} › ${d.topic}`
                  : d.type === "private"
                    ? `To ${d.to.map(userName).join(", ")}`
                    : "No recipient"}
              </strong>
              <span class="hint">{ago(d.timestamp)}</span>
            </div>
            <p class="draft-text">{d.content}</p>
            <div class="row">
              <button class="btn small primary" onClick={() => restoreDraft(d.id)}>
                Restore
              </button>
              <button class="btn small" onClick={() => api.delete(`drafts/${d.id}`).catch(sayError)}>
                Delete
              </button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
