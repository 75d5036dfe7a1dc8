// What the organization adds to messages and profiles: custom emoji, linkifiers (in the order they
// apply), custom profile fields (in the order profiles show them).
import { useSignal } from "@preact/signals";
import { api } from "../../api/client";
import { linkifiers, playgrounds, profileFields, profileFieldTypes } from "../../store/admin";
import { realmEmoji, userName } from "../../store/state";
import { act, CommitInput, formValue, Part, Reorderable } from "./fields";
import { mayAddEmoji, mayRemoveEmoji } from "./rules";

export function Emoji() {
  const list = Object.values(realmEmoji.value)
    .filter((e) => !e.deactivated)
    .sort((a, b) => a.name.localeCompare(b.name));
  return (
    <>
      <Part title="Custom emoji" id="emoji">
        <ul class="admin-list emoji-admin" data-testid="admin-emoji">
          {list.map((e) => (
            <li key={e.id} data-testid={`admin-emoji-${e.name}`}>
              <img src={e.source_url} alt="" width={24} height={24} />
              <span class="grow">
                :{e.name}:{(e as any).author_id ? <span class="hint"> · added by {userName((e as any).author_id)}</span> : null}
              </span>
              {mayRemoveEmoji(e as { author_id?: number }) && (
                <button
                  class="btn small danger"
                  onClick={() => confirm(`Remove :${e.name}:?`) && act(() => api.delete(`realm/emoji/${encodeURIComponent(e.name)}`), "Emoji removed")}
                >
                  Remove
                </button>
              )}
            </li>
          ))}
          {!list.length && <li class="empty-note">No custom emoji yet.</li>}
        </ul>
      </Part>
      {mayAddEmoji() && (
        <Part title="Add an emoji" id="add-emoji" note="A square image (PNG, GIF or JPEG); names use lowercase letters, digits, - and _.">
          <form
            class="form admin-form"
            onSubmit={(e) => {
              e.preventDefault();
              const f = e.currentTarget;
              const file = (f.elements.namedItem("file") as HTMLInputElement).files?.[0];
              if (!file) return;
              const body = new FormData();
              body.append("file", file, file.name);
              act(() => api.post(`realm/emoji/${encodeURIComponent(formValue(f, "name").trim())}`, body), "Emoji added").then((ok) => ok && f.reset());
            }}
          >
            <label>
              Name
              <input name="name" required pattern="[a-z0-9_\-]+" data-testid="emoji-name" />
            </label>
            <label>
              Image
              <input name="file" type="file" required accept="image/png,image/gif,image/jpeg,image/webp" data-testid="emoji-file" />
            </label>
            <div class="row end">
              <button class="btn primary" data-testid="emoji-submit">
                Add emoji
              </button>
            </div>
          </form>
        </Part>
      )}
    </>
  );
}

export function Linkifiers() {
  return (
    <>
      <LinkifierList />
      <Playgrounds />
    </>
  );
}

function LinkifierList() {
  return (
    <Part
      title="Linkifiers"
      id="linkifiers"
      note="Text matching a pattern becomes a link, e.g. #(?P<id>[0-9]+) → https://github.com/org/repo/issues/{id}. The first matching pattern wins."
    >
      <Reorderable
        items={linkifiers.value}
        label={(l) => l.pattern}
        save={(ids) => act(() => api.patch("realm/linkifiers", { ordered_linkifier_ids: ids }), "Order saved")}
        render={(l) => (
          <form
            class="grow row wrap"
            onSubmit={(e) => {
              e.preventDefault();
              act(() =>
                api.patch(`realm/filters/${l.id}`, {
                  pattern: formValue(e.currentTarget, "pattern"),
                  url_template: formValue(e.currentTarget, "url_template"),
                }),
              );
            }}
          >
            <input name="pattern" class="mono grow" aria-label="Pattern" defaultValue={l.pattern} />
            <input name="url_template" class="mono grow" aria-label="URL template" defaultValue={l.url_template} />
            <button class="btn small">Save</button>
            <button type="button" class="btn small danger" onClick={() => act(() => api.delete(`realm/filters/${l.id}`), "Linkifier removed")}>
              Remove
            </button>
          </form>
        )}
      />
      <form
        class="row wrap"
        onSubmit={(e) => {
          e.preventDefault();
          const f = e.currentTarget;
          act(() => api.post("realm/filters", { pattern: formValue(f, "pattern"), url_template: formValue(f, "url_template") }), "Linkifier added").then(
            (ok) => ok && f.reset(),
          );
        }}
      >
        <input name="pattern" required class="mono grow" aria-label="New pattern" placeholder="#(?P<id>[0-9]+)" />
        <input name="url_template" required class="mono grow" aria-label="New URL template" placeholder="https://example.com/issues/{id}" />
        <button class="btn">Add linkifier</button>
      </form>
    </Part>
  );
}

const SELECT_TYPE = 3;
const EXTERNAL_ACCOUNT_TYPE = 7;

export function ProfileFields() {
  const type = useSignal(1);
  const types = Object.values(profileFieldTypes.value);
  const typeName = (id: number) => types.find((t) => t.id === id)?.name ?? String(id);
  const fields = [...profileFields.value].sort((a, b) => a.order - b.order);
  return (
    <>
      <Part title="Custom profile fields" id="profile-fields" note="Shown on everyone's profile, in this order.">
        <Reorderable
          items={fields}
          label={(f) => f.name}
          save={(order) => act(() => api.patch("realm/profile_fields", { order }), "Order saved")}
          render={(f) => (
            <>
              <div class="grow form">
                <CommitInput
                  aria-label={`Name of ${f.name}`}
                  value={f.name}
                  onCommit={(v) => act(() => api.patch(`realm/profile_fields/${f.id}`, { name: v }))}
                />
                <CommitInput
                  aria-label={`Hint of ${f.name}`}
                  placeholder="Hint"
                  value={f.hint}
                  onCommit={(v) => act(() => api.patch(`realm/profile_fields/${f.id}`, { hint: v }))}
                />
                <span class="hint">{typeName(f.type)}</span>
              </div>
              <label class="check">
                <input
                  type="checkbox"
                  checked={!!f.required}
                  onChange={(e) => act(() => api.patch(`realm/profile_fields/${f.id}`, { required: e.currentTarget.checked }))}
                />{" "}
                Required
              </label>
              <button
                class="btn small danger"
                onClick={() =>
                  confirm(`Remove the field ${f.name} and everyone's answers?`) && act(() => api.delete(`realm/profile_fields/${f.id}`), "Field removed")
                }
              >
                Remove
              </button>
            </>
          )}
        />
        {!fields.length && <p class="empty-note">No custom fields yet.</p>}
      </Part>
      <Part title="Add a field" id="add-field">
        <form
          class="form admin-form"
          onSubmit={(e) => {
            e.preventDefault();
            const f = e.currentTarget;
            const params: Record<string, unknown> = { name: formValue(f, "name"), hint: formValue(f, "hint"), field_type: type.value };
            if (type.value === SELECT_TYPE) {
              const options = formValue(f, "options")
                .split("\n")
                .map((s) => s.trim())
                .filter(Boolean);
              params.field_data = Object.fromEntries(options.map((text, i) => [String(i), { text, order: String(i) }]));
            }
            if (type.value === EXTERNAL_ACCOUNT_TYPE) params.field_data = { subtype: "custom", url_pattern: formValue(f, "url_pattern") };
            act(() => api.post("realm/profile_fields", params), "Field added").then((ok) => ok && f.reset());
          }}
        >
          <label>
            Type
            <select value={type.value} onChange={(e) => (type.value = Number(e.currentTarget.value))}>
              {types.map((t) => (
                <option value={t.id}>{t.name}</option>
              ))}
            </select>
          </label>
          <label>
            Name
            <input name="name" required maxLength={40} />
          </label>
          <label>
            Hint
            <input name="hint" maxLength={80} />
          </label>
          {type.value === SELECT_TYPE && (
            <label>
              Options, one a line
              <textarea name="options" required rows={3} />
            </label>
          )}
          {type.value === EXTERNAL_ACCOUNT_TYPE && (
            <label>
              Profile URL pattern (with %(username)s)
              <input name="url_pattern" required placeholder="https://example.com/%(username)s" />
            </label>
          )}
          <div class="row end">
            <button class="btn primary">Add field</button>
          </div>
        </form>
      </Part>
    </>
  );
}

/** Code playgrounds: a code block in a language gets a link that opens it in an outside tool. */
function Playgrounds() {
  return (
    <Part
      title="Code playgrounds"
      id="playgrounds"
      note="A code block in this language gets a button that opens its code at the URL ({code} is replaced by the code)."
    >
      <ul class="admin-list">
        {playgrounds.value.map((p) => (
          <li key={p.id}>
            <span class="grow">
              {p.name} <span class="tag">{p.pygments_language}</span>
              <div class="hint mono">{p.url_template}</div>
            </span>
            <button class="btn small danger" onClick={() => act(() => api.delete(`realm/playgrounds/${p.id}`), "Playground removed")}>
              Remove
            </button>
          </li>
        ))}
        {!playgrounds.value.length && <li class="empty-note">No playgrounds.</li>}
      </ul>
      <form
        class="row wrap"
        onSubmit={(e) => {
          e.preventDefault();
          const f = e.currentTarget;
          act(
            () =>
              api.post("realm/playgrounds", {
                name: formValue(f, "name"),
                pygments_language: formValue(f, "language"),
                url_template: formValue(f, "url_template"),
              }),
            "Playground added",
          ).then((ok) => ok && f.reset());
        }}
      >
        <input name="name" required maxLength={50} aria-label="Playground name" placeholder="Rust playground" />
        <input name="language" required maxLength={40} aria-label="Language" placeholder="rust" />
        <input name="url_template" required class="mono grow" aria-label="URL template" placeholder="https://play.example.com/?code={code}" />
        <button class="btn">Add playground</button>
      </form>
    </Part>
  );
}
