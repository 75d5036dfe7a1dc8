// Incoming webhooks: a service posts its own payload to /api/v1/external/{integration}; the
// integration's pure function (src/integrations) turns it into messages, sent as the bot.
import type { App } from "../context";
import type { RealmRow, UserRow } from "../db/schema";
import { BOT_TYPE } from "../domain/bots";
import {
  anomalousWebhookPayload,
  ApiError,
  botHasNoOwnerSend,
  invalidParam,
  malformedJson,
  missingEventHeader,
  notIncomingWebhookBot,
  notList,
  notString,
  notValidJson,
  unsupportedWebhookEvent,
} from "../domain/errors";
import { PayloadError, type Integration, type WebhookResult } from "../integrations/types";
import { findUserById } from "../store/users";
import { sendMessage, sendNotificationTx } from "./messages";

export interface WebhookRequest {
  headers: Headers;
  /** The body as received. */
  body: string;
  /** The URL's query parameters. */
  params: URLSearchParams;
}

/** Unsupported events are logged once per integration and event, not per request. */
const loggedUnsupported = new WeakMap<App, Set<string>>();
/** Notices to a bot's owner, by bot and subject: the same one at most once in this window. */
const OWNER_NOTICE_INTERVAL_MS = 10 * 60_000;
const ownerNotices = new WeakMap<App, Map<string, number>>();

/**
 * Handles one webhook call: only incoming-webhook bots may post this way (a generic bot or a person
 * has the full API). Posts to `stream` (name or id) and `topic` when given, otherwise a direct message
 * to the bot's owner, as Zulip does; `only_events` / `exclude_events` (shell patterns) filter events.
 */
export async function receiveWebhook(app: App, realm: RealmRow, bot: UserRow, integration: Integration, req: WebhookRequest): Promise<void> {
  if (!bot.isBot || bot.botType !== BOT_TYPE.incomingWebhook) throw notIncomingWebhookBot();
  if (integration.eventHeader && !req.headers.get(integration.eventHeader)) {
    const h = integration.eventHeader;
    await notifyBotOwner(
      app,
      realm,
      bot,
      `header:${integration.name}`,
      `Your bot @_**${bot.fullName}** received a request for the ${integration.displayName} integration without the HTTP header \`${h}\`, which names the event. The service is probably set up with another integration's URL, or is too old to send that header.`,
    );
    throw missingEventHeader(h);
  }
  const payload = parsePayload(req);
  const only = patternList(req.params, "only_events");
  const exclude = patternList(req.params, "exclude_events");
  const result = runIntegration(integration, { headers: req.headers, payload, params: req.params });
  if ("unsupported" in result) {
    logUnsupportedOnce(app, integration, result.unsupported);
    throw unsupportedWebhookEvent(result.unsupported, integration.displayName);
  }
  const stream = req.params.get("stream");
  const userTopic = req.params.get("topic");
  const client = `Zulip${integration.displayName.replace(/\W/g, "")}Webhook`;
  for (const m of result.messages) {
    const event = m.event ?? result.event;
    if (only && !only.some((re) => re.test(event))) continue;
    if (exclude?.some((re) => re.test(event))) continue;
    if (stream === null) {
      if (bot.botOwnerId === null) throw botHasNoOwnerSend();
      await sendMessage(app, realm, bot, { type: "private", to: [bot.botOwnerId], content: m.content }, client);
      continue;
    }
    try {
      await sendMessage(
        app,
        realm,
        bot,
        { type: "stream", to: /^\d+$/.test(stream) ? Number(stream) : stream, topic: userTopic ?? m.topic, content: m.content },
        client,
      );
    } catch (e) {
      // As in Zulip: the service is not told (it cannot fix it); the bot's owner is.
      if (!(e instanceof ApiError && e.code === "STREAM_DOES_NOT_EXIST")) throw e;
      const what = /^\d+$/.test(stream) ? `the channel with ID ${stream}` : `channel #${stream.replace(/[*`]/g, "")}`;
      await notifyBotOwner(
        app,
        realm,
        bot,
        `channel:${stream}`,
        `Your bot @_**${bot.fullName}** tried to send a message to ${what}, but that channel does not exist. Create it, or correct the webhook's URL.`,
      );
    }
  }
}

function logUnsupportedOnce(app: App, integration: Integration, event: string) {
  const seen = loggedUnsupported.get(app) ?? new Set<string>();
  loggedUnsupported.set(app, seen);
  const key = `${integration.name}\n${event}`;
  if (seen.has(key)) return;
  seen.add(key);
  app.log.info("unsupported webhook event", { integration: integration.name, event });
}

function runIntegration(integration: Integration, input: Parameters<Integration["handle"]>[0]): WebhookResult {
  try {
    return integration.handle(input);
  } catch (e) {
    if (e instanceof PayloadError) throw invalidParam(e.message);
    if (e instanceof ApiError) throw e;
    // A payload of another shape than the service's (a TypeError deep in a handler): not our crash.
    throw anomalousWebhookPayload(integration.displayName);
  }
}

/** JSON, or a form whose `payload` field holds the JSON (Slack's style), or else the form's fields. */
function parsePayload(req: WebhookRequest): unknown {
  const type = (req.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const parseJson = (text: string) => {
    try {
      return JSON.parse(text);
    } catch {
      throw malformedJson();
    }
  };
  if (type === "application/x-www-form-urlencoded") {
    const form = new URLSearchParams(req.body);
    const inner = form.get("payload");
    return inner !== null ? parseJson(inner) : Object.fromEntries(form);
  }
  if (!req.body.trim()) return {};
  return parseJson(req.body);
}

/** only_events / exclude_events: a JSON list of shell-style patterns (`*`, `?`, `[...]`). */
function patternList(params: URLSearchParams, name: string): RegExp[] | null {
  const raw = params.get(name);
  if (raw === null) return null;
  let list: unknown;
  try {
    list = JSON.parse(raw);
  } catch {
    throw notValidJson(name);
  }
  if (!Array.isArray(list)) throw notList(name);
  return list.map((p, i) => {
    if (typeof p !== "string") throw notString(name, i);
    return globToRegExp(p);
  });
}

function globToRegExp(glob: string): RegExp {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") re += ".*";
    else if (c === "?") re += ".";
    else if (c === "[" && glob.indexOf("]", i + 2) > 0) {
      const end = glob.indexOf("]", i + 2);
      const body = glob.slice(i + 1, end);
      re += "[" + (body.startsWith("!") ? "^" + body.slice(1) : body).replace(/\\/g, "\\\\") + "]";
      i = end;
    } else re += c.replace(/[.+^${}()|\\\]]/g, "\\$&");
  }
  return new RegExp(`^${re}$`, "s");
}

/**
 * A direct message from the notification bot to the bot's owner about a misconfigured webhook (a
 * channel that does not exist, a missing event header), as Zulip sends; the same notice at most once
 * in a while, so a service retrying every minute does not flood the owner.
 */
async function notifyBotOwner(app: App, realm: RealmRow, bot: UserRow, key: string, content: string) {
  const owner = bot.botOwnerId === null ? undefined : await findUserById(app.db, bot.botOwnerId);
  if (!owner?.isActive) return;
  const sent = ownerNotices.get(app) ?? new Map<string, number>();
  ownerNotices.set(app, sent);
  const k = `${bot.id}\n${key}`;
  const now = Date.now();
  if ((sent.get(k) ?? 0) > now - OWNER_NOTICE_INTERVAL_MS) return;
  sent.set(k, now);
  await app.tx(async (tx) => await sendNotificationTx(app, tx, realm, { to: owner }, content));
}
