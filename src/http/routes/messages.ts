import { sendMessage } from "../../actions/messages";
import { renderPreview } from "../../actions/render";
import { endpoint } from "../endpoint";
import { p } from "../params";

export default [
  endpoint("POST", "/messages", {
    params: {
      type: p.enum(["stream", "channel", "private", "direct"] as const),
      to: p.str(),
      content: p.str(),
      topic: p.str().optional(),
      queue_id: p.str().optional(),
      local_id: p.str().optional(),
      read_by_sender: p.bool().optional(),
    },
    run: ({ app, realm, user, args }) => sendMessage(app, realm, user, args),
  }),
  endpoint("POST", "/messages/render", {
    params: { content: p.str() },
    run: ({ app, realm, user, args }) => renderPreview(app, realm, user, args.content),
  }),
];
