import { addPluginLink, pluginLinkParams, removePluginLink } from "../../actions/plugin-links";
import { pluginLogs } from "../../actions/plugin-processes";
import { removePlugin, restorePlugin } from "../../actions/plugin-removal";
import { clearPluginSecret, setPluginSecret } from "../../actions/plugin-secrets";
import { getPlugin, installParams, installPlugin, listPlugins, pluginPatchParams, updatePlugin } from "../../actions/plugins";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

const install_id = p.path.int();

export default [
  endpoint("GET", "/ext/plugins", { params: {}, run: ({ app, realm, user }) => listPlugins(app, realm, user) }),
  endpoint("POST", "/ext/plugins", {
    params: installParams,
    run: ({ app, realm, user, args }) => installPlugin(app, realm, user, args),
  }),
  endpoint("GET", "/ext/plugins/{install_id}", {
    params: { install_id },
    run: ({ app, realm, user, args }) => getPlugin(app, realm, user, args.install_id),
  }),
  endpoint("PATCH", "/ext/plugins/{install_id}", {
    params: { install_id, ...pluginPatchParams },
    run: ({ app, realm, user, args }) => updatePlugin(app, realm, user, args.install_id, args),
  }),
  endpoint("DELETE", "/ext/plugins/{install_id}", {
    params: { install_id },
    run: ({ app, realm, user, args }) => removePlugin(app, realm, user, args.install_id),
  }),
  endpoint("POST", "/ext/plugins/{install_id}/restore", {
    params: { install_id },
    run: ({ app, realm, user, args }) => restorePlugin(app, realm, user, args.install_id),
  }),
  endpoint("POST", "/ext/plugins/{install_id}/secrets/{name}", {
    params: { install_id, name: p.path.str(), secret: p.str() },
    run: ({ app, realm, user, args }) => setPluginSecret(app, realm, user, args.install_id, args.name, args.secret),
  }),
  endpoint("DELETE", "/ext/plugins/{install_id}/secrets/{name}", {
    params: { install_id, name: p.path.str() },
    run: ({ app, realm, user, args }) => clearPluginSecret(app, realm, user, args.install_id, args.name),
  }),
  endpoint("POST", "/ext/plugins/{install_id}/links", {
    params: { install_id, ...pluginLinkParams },
    run: ({ app, realm, user, args }) => addPluginLink(app, realm, user, args.install_id, args),
  }),
  endpoint("DELETE", "/ext/plugins/{install_id}/links/{link_id}", {
    params: { install_id, link_id: p.path.int() },
    run: ({ app, realm, user, args }) => removePluginLink(app, realm, user, args.install_id, args.link_id),
  }),
  endpoint("GET", "/ext/plugins/{install_id}/logs", {
    params: { install_id, lines: p.int({ min: 1, max: 1000 }).optional(100) },
    run: ({ app, realm, user, args }) => pluginLogs(app, realm, user, args.install_id, args.lines),
  }),
];
