// POST /api/v1/external/{integration}: incoming webhooks. Outside the endpoint table because the body
// is the service's own payload (any JSON, or a form), not API parameters; authentication is the bot's
// `api_key` URL parameter or HTTP Basic, as in Zulip.
import { authenticateWebhookKey } from "../../actions/auth";
import { receiveWebhook } from "../../actions/integrations";
import { missingArgument, notFoundEndpoint, requestTooLarge } from "../../domain/errors";
import { findIntegration } from "../../integrations";
import { requestUser } from "../auth";
import { realmForHost } from "../realm";
import { success } from "../respond";
import type { Page } from "./page";

const external: Page = {
  method: "POST",
  path: "/api/v1/external/:integration",
  async handle(app, request, params, ip) {
    const integration = findIntegration(params.integration!);
    if (!integration) throw notFoundEndpoint();
    const realm = await realmForHost(app, request.headers.get("host"));
    const url = new URL(request.url);
    const header = request.headers.get("authorization");
    const apiKey = url.searchParams.get("api_key");
    let bot;
    if (header) bot = await requestUser(app, realm, header, ip);
    else if (apiKey !== null) bot = await authenticateWebhookKey(app, realm, apiKey, ip);
    else throw missingArgument("api_key");
    const limit = app.config.integrations.maxPayloadBytes;
    if (Number(request.headers.get("content-length") ?? 0) > limit) throw requestTooLarge();
    const bytes = await request.arrayBuffer();
    if (bytes.byteLength > limit) throw requestTooLarge();
    await receiveWebhook(app, realm, bot, integration, { headers: request.headers, body: new TextDecoder().decode(bytes), params: url.searchParams });
    await app.writer.settled(); // answer once the messages are committed
    return success({}, []);
  },
};

export default [external];
