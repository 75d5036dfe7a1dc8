// Organization secrets: add one (the value is typed once and never shown again), list them with their
// hints, notes and last use, give a new value, delete. The list follows ext_secret events.
import { useSignal } from "@preact/signals";
import { api } from "../../api/client";
import { ago } from "../../ui/format";
import { say, sayError } from "../../ui/toast";
import { extSecrets, type OrgSecret } from "../../store/ext";
import { me, userName } from "../../store/state";
import { isAdmin } from "./access";

export function Secrets() {
  const list = [...extSecrets.value.values()].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <div class="ext-section">
      <p class="ext-note" role="note">
        Every agent run gets every organization secret as an environment variable of its name, from its next turn on; a plugin gets the ones its manifest names.
        Members see names, notes and the last four characters of long values — never a value. Only the person who added a secret and administrators can replace
        or delete it.
      </p>
      <AddSecret />
      <h2 class="ext-h2">Secrets ({list.length})</h2>
      {list.length === 0 ? (
        <p class="empty-note">No secrets yet.</p>
      ) : (
        <ul class="ext-list" data-testid="secret-list">
          {list.map((s) => (
            <SecretRow key={s.name} s={s} />
          ))}
        </ul>
      )}
    </div>
  );
}

function AddSecret() {
  const name = useSignal("");
  const value = useSignal("");
  const note = useSignal("");
  const error = useSignal("");
  const busy = useSignal(false);
  async function submit(e: Event) {
    e.preventDefault();
    busy.value = true;
    error.value = "";
    try {
      await api.post("ext/secrets", { name: name.value.trim(), secret: value.value, note: note.value });
      say(`Secret ${name.value.trim()} added`);
      name.value = value.value = note.value = "";
    } catch (err) {
      error.value = (err as Error).message;
    } finally {
      busy.value = false;
    }
  }
  return (
    <form class="form ext-card ext-form" onSubmit={submit} aria-label="Add a secret">
      <h2 class="ext-h2">Add a secret</h2>
      <div class="ext-grid">
        <label>
          Name
          <input
            data-testid="secret-name"
            required
            maxLength={64}
            placeholder="GITHUB_TOKEN"
            value={name.value}
            autoComplete="off"
            spellcheck={false}
            onInput={(e) => (name.value = e.currentTarget.value.toUpperCase())}
          />
        </label>
        <label>
          Value
          <input
            data-testid="secret-value"
            type="password"
            required
            maxLength={4096}
            autoComplete="new-password"
            value={value.value}
            onInput={(e) => (value.value = e.currentTarget.value)}
          />
        </label>
        <label>
          Note
          <input
            data-testid="secret-note"
            maxLength={200}
            placeholder="What it is for"
            value={note.value}
            onInput={(e) => (note.value = e.currentTarget.value)}
          />
        </label>
      </div>
      {error.value && (
        <p class="form-error" role="alert" data-testid="secret-error">
          {error.value}
        </p>
      )}
      <div>
        <button class="btn primary" data-testid="secret-add" disabled={busy.value}>
          Add secret
        </button>
      </div>
    </form>
  );
}

function SecretRow({ s }: { s: OrgSecret }) {
  const replacing = useSignal(false);
  const value = useSignal("");
  const note = useSignal(s.note);
  const mayChange = isAdmin() || s.added_by === me.value.user_id;
  async function replace(e: Event) {
    e.preventDefault();
    try {
      await api.patch(`ext/secrets/${encodeURIComponent(s.name)}`, { secret: value.value || undefined, note: note.value !== s.note ? note.value : undefined });
      replacing.value = false;
      value.value = "";
      say(`${s.name} saved`);
    } catch (err) {
      sayError(err);
    }
  }
  const remove = () =>
    confirm(`Delete the secret ${s.name}? Runs and plugins will no longer get it.`) && api.delete(`ext/secrets/${encodeURIComponent(s.name)}`).catch(sayError);
  return (
    <li class="ext-row" data-testid={`secret-${s.name}`}>
      <div class="grow">
        <code class="ext-name">{s.name}</code>
        {s.hint && <span class="hint"> ends in …{s.hint}</span>}
        {s.note && <div>{s.note}</div>}
        <div class="hint">
          Added by {s.added_by ? userName(s.added_by) : "the server's operator"} {ago(s.date_added)}
          {s.date_replaced && ` · new value ${ago(s.date_replaced)}`} ·{" "}
          <span data-testid="secret-used">{s.date_used ? `last used ${ago(s.date_used)}` : "never used"}</span>
        </div>
        {replacing.value && (
          <form class="row wrap" onSubmit={replace} onKeyDown={(e) => e.key === "Escape" && (replacing.value = false)}>
            <input
              type="password"
              class="grow"
              aria-label={`New value for ${s.name}`}
              placeholder="new value (empty: keep it)"
              autoComplete="new-password"
              value={value.value}
              onInput={(e) => (value.value = e.currentTarget.value)}
            />
            <input class="grow" aria-label={`Note for ${s.name}`} maxLength={200} value={note.value} onInput={(e) => (note.value = e.currentTarget.value)} />
            <button class="btn small primary">Save</button>
          </form>
        )}
      </div>
      {mayChange && (
        <div class="ext-actions">
          <button class="btn small" aria-expanded={replacing.value} onClick={() => (replacing.value = !replacing.value)}>
            Change
          </button>
          <button class="btn small danger" data-testid="secret-delete" onClick={remove}>
            Delete
          </button>
        </div>
      )}
    </li>
  );
}
