import { addRealmEmoji, listRealmEmoji, removeRealmEmoji } from "../../actions/realm-emoji";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("GET", "/realm/emoji", {
    params: {},
    run: ({ app, user }) => listRealmEmoji(app, user),
  }),
  endpoint("POST", "/realm/emoji/{emoji_name}", {
    body: "upload",
    params: { emoji_name: p.path.str() },
    run: ({ app, realm, user, args, files }) => addRealmEmoji(app, realm, user, args.emoji_name, files),
  }),
  endpoint("DELETE", "/realm/emoji/{emoji_name}", {
    params: { emoji_name: p.path.str() },
    run: ({ app, realm, user, args }) => removeRealmEmoji(app, realm, user, args.emoji_name),
  }),
];
