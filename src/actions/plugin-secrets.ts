// A plugin install's secret slots: values set and cleared by its managers, sealed before they are stored.
import type { App } from "../context";
import type { PluginRow, RealmRow, UserRow } from "../db/schema";
import { pluginAlreadyRemoved, unknownSecret } from "../domain/errors";
import { checkSecretValue, secretHint } from "../domain/secrets";
import * as store from "../store/plugins";
import { sealValue } from "./secrets";
import { managed } from "./plugin-access";
import { pluginObject } from "../serializers/plugins";
import { pluginHostChanged } from "./plugin-host";
import { replanTx } from "./plugin-states";

export const slotContext = (installId: number, name: string) => `plugin:${installId}:${name}`;

function declaredSlot(p: PluginRow, name: string) {
  if (!(p.manifest.provides.secrets ?? []).some((s) => s.name === name)) throw unknownSecret(name);
}

/** POST /ext/plugins/{install_id}/secrets/{name}: a value for a secret slot; never shown again. */
export async function setPluginSecret(app: App, realm: RealmRow, actor: UserRow | null, id: number, name: string, value: string) {
  const p = await managed(app, realm, actor, id);
  if (p.state === "removed") throw pluginAlreadyRemoved();
  declaredSlot(p, name);
  checkSecretValue(value);
  const sealed = sealValue(app, value, slotContext(p.id, name));
  const row = await app.tx(async (tx) => {
    await store.saveSlot(tx.db, { installId: p.id, name, sealed, hint: secretHint(value), setBy: actor?.id ?? null, dateSet: app.now() });
    return await replanTx(tx, p);
  });
  pluginHostChanged(app);
  return { plugin: await pluginObject(app.db, row) };
}

/** DELETE /ext/plugins/{install_id}/secrets/{name}: clears a slot (a required one makes the plugin wait). */
export async function clearPluginSecret(app: App, realm: RealmRow, actor: UserRow | null, id: number, name: string) {
  const p = await managed(app, realm, actor, id);
  if (p.state === "removed") throw pluginAlreadyRemoved();
  declaredSlot(p, name);
  const row = await app.tx(async (tx) => {
    await store.deleteSlot(tx.db, p.id, name);
    return await replanTx(tx, p);
  });
  pluginHostChanged(app);
  return { plugin: await pluginObject(app.db, row) };
}
