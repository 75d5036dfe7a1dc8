// A plugin install's links: a declared kind tied to a channel or a channel and topic.
import type { App } from "../context";
import type { RealmRow, UserRow } from "../db/schema";
import {
  invalidChannelId,
  noSuchLink,
  pluginAlreadyHasLink,
  pluginAlreadyRemoved,
  topicTooLongLimitCharacters,
  unknownLinkKind,
  valueTooLong,
} from "../domain/errors";
import { toApiLink } from "../domain/plugins";
import { p, type Args } from "../domain/params";
import * as store from "../store/plugins";
import { findChannel } from "../store/channels";
import { deleteDocumentsOfLink } from "../store/widgets";
import { announcePluginTx, managed } from "./plugin-access";
import { accessChannelById } from "../access/channels";

export const pluginLinkParams = { kind: p.str(), value: p.str(), stream_id: p.int(), topic: p.str().optional() };

/** POST /ext/plugins/{install_id}/links: a link of a declared kind to a channel (topic null) or a channel and topic. */
export async function addPluginLink(app: App, realm: RealmRow, actor: UserRow | null, id: number, a: Args<typeof pluginLinkParams>) {
  const p = await managed(app, realm, actor, id);
  if (p.state === "removed") throw pluginAlreadyRemoved();
  if (!(p.manifest.provides.links ?? []).some((l) => l.kind === a.kind)) throw unknownLinkKind(a.kind);
  if ([...a.value].length > 200) throw valueTooLong();
  if (actor) await accessChannelById(app, actor, a.stream_id, { content: true });
  else if ((await findChannel(app.db, a.stream_id))?.realmId !== realm.id) throw invalidChannelId();
  const topic = a.topic ?? null;
  if (topic !== null && [...topic].length > app.config.limits.maxTopicLength) throw topicTooLongLimitCharacters(app.config.limits.maxTopicLength);
  if ((await store.listLinks(app.db, [p.id])).some((l) => l.kind === a.kind && l.value === a.value && l.streamId === a.stream_id && l.topic === topic))
    throw pluginAlreadyHasLink();
  return await app.tx(async (tx) => {
    const link = await store.insertLink(tx.db, { installId: p.id, kind: a.kind, value: a.value, streamId: a.stream_id, topic });
    await announcePluginTx(tx, p);
    return { link: toApiLink(link) };
  });
}

/** DELETE /ext/plugins/{install_id}/links/{link_id}. */
export async function removePluginLink(app: App, realm: RealmRow, actor: UserRow | null, id: number, linkId: number) {
  const p = await managed(app, realm, actor, id);
  const link = await store.findLink(app.db, linkId);
  if (!link || link.installId !== p.id) throw noSuchLink();
  await app.tx(async (tx) => {
    await store.deleteLink(tx.db, link.id);
    await deleteDocumentsOfLink(tx.db, link.id); // the link's widget documents go with it
    await announcePluginTx(tx, p);
  });
  return {};
}
