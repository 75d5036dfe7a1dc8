import { botPatchParams, createBot, deactivateBot, listOwnBots, newBotParams, regenerateBotApiKey, updateBot } from "../../actions/bots";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("GET", "/bots", { params: {}, run: ({ app, user }) => listOwnBots(app, user) }),
  endpoint("POST", "/bots", {
    params: newBotParams,
    run: ({ app, realm, user, args }) => createBot(app, realm, user, args),
  }),
  endpoint("PATCH", "/bots/{bot_id}", {
    params: { bot_id: p.path.int(), ...botPatchParams },
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
