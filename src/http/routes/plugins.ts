import { addPluginLink, pluginLinkParams, removePluginLink } from "../../actions/plugin-links";
import { pluginLogs } from "../../actions/plugin-processes";
import { removePlugin, restorePlugin } from "../../actions/plugin-removal";
import { clearPluginSecret, setPluginSecret } from "../../actions/plugin-secrets";
import { getPlugin, installParams, installPlugin, listPlugins, pluginPatchParams, updatePlugin } from "../../actions/plugins";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

const install_id = p.path.int();

export default [
  endpoint("GET", "/ext/plugins", { params: {}, run: async ({ app, realm, user }) => await listPlugins(app, realm, user) }),
  endpoint("POST", "/ext/plugins", {
    params: installParams,
    run: ({ app, realm, user, args }) => installPlugin(app, realm, user, args),
  }),
  endpoint("GET", "/ext/plugins/{install_id}", {
    params: { install_id },
    run: async ({ app, realm, user, args }) => await getPlugin(app, realm, user, args.install_id),
  }),
  endpoint("PATCH", "/ext/plugins/{install_id}", {
    params: { install_id, ...pluginPatchParams },
    run: async ({ app, realm, user, args }) => await updatePlugin(app, realm, user, args.install_id, args),
  }),
  endpoint("DELETE", "/ext/plugins/{install_id}", {
    params: { install_id },
    run: async ({ app, realm, user, args }) => await removePlugin(app, realm, user, args.install_id),
  }),
  endpoint("POST", "/ext/plugins/{install_id}/restore", {
    params: { install_id },
    run: async ({ app, realm, user, args }) => await restorePlugin(app, realm, user, args.install_id),
  }),
  endpoint("POST", "/ext/plugins/{install_id}/secrets/{name}", {
    params: { install_id, name: p.path.str(), secret: p.str() },
    run: async ({ app, realm, user, args }) => await setPluginSecret(app, realm, user, args.install_id, args.name, args.secret),
  }),
  endpoint("DELETE", "/ext/plugins/{install_id}/secrets/{name}", {
    params: { install_id, name: p.path.str() },
    run: async ({ app, realm, user, args }) => await clearPluginSecret(app, realm, user, args.install_id, args.name),
  }),
  endpoint("POST", "/ext/plugins/{install_id}/links", {
    params: { install_id, ...pluginLinkParams },
    run: async ({ app, realm, user, args }) => await addPluginLink(app, realm, user, args.install_id, args),
  }),
  endpoint("DELETE", "/ext/plugins/{install_id}/links/{link_id}", {
    params: { install_id, link_id: p.path.int() },
    run: async ({ app, realm, user, args }) => await removePluginLink(app, realm, user, args.install_id, args.link_id),
  }),
  endpoint("GET", "/ext/plugins/{install_id}/logs", {
    params: { install_id, lines: p.int({ min: 1, max: 1000 }).optional(100) },
    run: async ({ app, realm, user, args }) => await pluginLogs(app, realm, user, args.install_id, args.lines),
  }),
];
