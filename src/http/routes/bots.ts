import { createBot, deactivateBot, listOwnBots, regenerateBotApiKey, updateBot } from "../../actions/bots";
import { endpoint } from "../endpoint";
import { p, Param } from "../../domain/params";

/** Zulip declares payload URLs as JSON strings; clients send them encoded or bare, so both are read. */
const url = () =>
  new Param<string>((raw) => {
    try {
      const v = JSON.parse(String(raw));
      if (typeof v === "string") return v;
    } catch {}
    return String(raw);
  }, "string");

export default [
  endpoint("GET", "/bots", { params: {}, run: ({ app, user }) => listOwnBots(app, user) }),
  endpoint("POST", "/bots", {
    params: {
      full_name: p.str(),
      short_name: p.str(),
      bot_type: p.int().optional(1),
      payload_url: url().optional(),
      interface_type: p.int().optional(1),
    },
    run: ({ app, realm, user, args }) => createBot(app, realm, user, args),
  }),
  endpoint("PATCH", "/bots/{bot_id}", {
    params: {
      bot_id: p.path.int(),
      full_name: p.str().optional(),
      bot_owner_id: p.int().optional(),
      service_payload_url: url().optional(),
      service_interface: p.int().optional(),
    },
    run: ({ app, realm, user, args }) => updateBot(app, realm, user, args.bot_id, args),
  }),
  endpoint("DELETE", "/bots/{bot_id}", {
    params: { bot_id: p.path.int() },
    run: ({ app, user, args }) => deactivateBot(app, user, args.bot_id),
  }),
  endpoint("POST", "/bots/{bot_id}/api_key/regenerate", {
    params: { bot_id: p.path.int() },
    run: ({ app, user, args }) => regenerateBotApiKey(app, user, args.bot_id),
  }),
];
