// Browse all channels one may see, subscribe or unsubscribe, and create a channel (for those the
// realm's channel-creation permissions allow).
import { signal, useSignal } from "@preact/signals";
import { api } from "../api/client";
import { Modal } from "../ui/Modal";
import { say, sayError } from "../ui/toast";
import { can } from "../store/permissions";
import { channelHref, go } from "../store/router";
import { streams, subs } from "../store/state";

const open = signal(false);
export const openChannelBrowser = () => (open.value = true);

export function ChannelBrowser() {
  const filter = useSignal("");
  const creating = useSignal(false);
  if (!open.value) return null;
  const close = () => ((open.value = false), (creating.value = false));
  const q = filter.value.toLowerCase();
  const all = new Map([...streams.value].concat([...subs.value].map(([id, s]) => [id, { ...s } as any])));
  const list = [...all.values()].filter((s) => !s.is_archived && s.name.toLowerCase().includes(q)).sort((a, b) => a.name.localeCompare(b.name));
  return (
    <Modal title={creating.value ? "Create a channel" : "Channels"} onClose={close} wide>
      {creating.value ? (
        <CreateChannel onDone={close} />
      ) : (
        <>
          <div class="row">
            <input
              class="grow"
              placeholder="Filter channels"
              aria-label="Filter channels"
              value={filter.value}
              onInput={(e) => (filter.value = e.currentTarget.value)}
            />
            {(can("can_create_public_channel_group") || can("can_create_private_channel_group")) && (
              <button class="btn primary" data-testid="create-channel" onClick={() => (creating.value = true)}>
                Create channel
              </button>
            )}
          </div>
          <ul class="channel-browser">
            {list.map((s) => {
              const subscribed = subs.value.has(s.stream_id);
              return (
                <li key={s.stream_id}>
                  <div class="grow">
                    <a href={channelHref(s.stream_id)} onClick={close} class="channel-name">
                      {s.invite_only ? "(private) " : "#"}
                      {s.name}
                    </a>
                    <div class="description" dangerouslySetInnerHTML={{ __html: s.rendered_description || "" }} />
                  </div>
                  <button
                    class={`btn${subscribed ? "" : " primary"}`}
                    data-testid={`subscribe-${s.name}`}
                    onClick={() =>
                      (subscribed
                        ? api.delete("users/me/subscriptions", { subscriptions: [s.name] })
                        : api.post("users/me/subscriptions", { subscriptions: [{ name: s.name }] })
                      ).catch(sayError)
                    }
                  >
                    {subscribed ? "Unsubscribe" : "Subscribe"}
                  </button>
                </li>
              );
            })}
            {list.length === 0 && <li class="empty-note">No channels match.</li>}
          </ul>
        </>
      )}
    </Modal>
  );
}

function CreateChannel({ onDone }: { onDone: () => void }) {
  const name = useSignal("");
  const description = useSignal("");
  // Public and private channels are separate permissions: offer only what the user may create.
  const mayPublic = can("can_create_public_channel_group");
  const mayPrivate = can("can_create_private_channel_group");
  const priv = useSignal(!mayPublic);
  const busy = useSignal(false);
  async function submit(e: Event) {
    e.preventDefault();
    busy.value = true;
    try {
      await api.post("users/me/subscriptions", { subscriptions: [{ name: name.value.trim(), description: description.value }], invite_only: priv.value });
      say(`Channel #${name.value.trim()} created`);
      const wanted = name.value.trim().toLowerCase();
      // The subscription event names the channel's id; follow it there once it arrived.
      setTimeout(() => {
        const s = [...subs.value.values()].find((x) => x.name.toLowerCase() === wanted);
        if (s) go(channelHref(s.stream_id));
      }, 300);
      onDone();
    } catch (err) {
      sayError(err);
    } finally {
      busy.value = false;
    }
  }
  return (
    <form class="form" onSubmit={submit}>
      <label>
        Name
        <input required maxLength={60} value={name.value} onInput={(e) => (name.value = e.currentTarget.value)} data-testid="new-channel-name" />
      </label>
      <label>
        Description
        <input value={description.value} onInput={(e) => (description.value = e.currentTarget.value)} />
      </label>
      <label class="check">
        <input
          type="checkbox"
          checked={priv.value}
          disabled={!(mayPublic && mayPrivate)}
          onChange={(e) => (priv.value = e.currentTarget.checked)}
          data-testid="new-channel-private"
        />{" "}
        Private: only invited people can see it
      </label>
      <div class="row end">
        <button class="btn primary" disabled={busy.value} data-testid="new-channel-submit">
          Create
        </button>
      </div>
    </form>
  );
}
