// Drains the outgoing webhook outbox (actions/outgoing-webhooks.ts): calls each bot's service with
// Zulip's payload, reads its answer, and hands the outcome back to the action. Woken when a send
// queues calls, and by a timer for retries and for rows left by a previous run; with several nodes also
// every `pollMs`, for calls queued on a node whose wake was lost.
import { lookup } from "node:dns/promises";
import { networkInterfaces } from "node:os";
import type { App } from "../context";
import { detached } from "../lib/detached";
import type { OutgoingWebhookCallRow } from "../db/schema";
import { finishOutgoingWebhookCall, type CallOutcome } from "../actions/outgoing-webhook-replies";
import { BOT_TYPE } from "../domain/bots";
import { addressPolicy, failureReply, refusal, replyFrom, requestFor, type AddressPolicy, type Trigger } from "../domain/outgoing-webhooks";
import { findBotService } from "../store/bots";
import { listDueOutgoingWebhookCalls, nextOutgoingWebhookDue } from "../store/outgoing-webhooks";
import { findRealmById } from "../store/realms";
import { findUserById } from "../store/users";
import { CONFAB_VERSION } from "../version";

/** Calls in flight at once; more wait for a free slot. */
const CONCURRENCY = 8;
/** The longest answer read from a service. */
const MAX_ANSWER_BYTES = 1 << 20;

/** This server's addresses and port: calls there are refused unless allowed (they would loop back into confab). */
function ownAddresses(app: App): { addresses: string[]; hosts: string[]; port: number } {
  const ext = new URL(app.config.externalUrl);
  const port = Number(ext.port || (ext.protocol === "https:" ? 443 : 80));
  const addresses = ["127.0.0.1", "::1", app.config.listen.host];
  for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) addresses.push(a.address);
  return { addresses, hosts: [ext.hostname, "localhost"], port };
}

export async function startOutgoingWebhooks(app: App, pollMs: number | null = null): Promise<{ stop(): Promise<void> }> {
  const cfg = app.config.outgoingWebhooks;
  const inFlight = new Map<number, Promise<void>>();
  const stopping = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let policy: AddressPolicy | undefined; // built on first use: with port 0 the address is known only once listening

  async function pump() {
    if (stopping.signal.aborted) return;
    clearTimeout(timer);
    if (inFlight.size < CONCURRENCY) {
      const due = await listDueOutgoingWebhookCalls(app.db, Date.now(), CONCURRENCY);
      // Counted after the read: another pump may have started calls meanwhile.
      for (const row of due.filter((r) => !inFlight.has(r.id)).slice(0, CONCURRENCY - inFlight.size)) {
        const run = call(row)
          .then(async (outcome) => {
            if (outcome && !stopping.signal.aborted) await finishOutgoingWebhookCall(app, row, outcome);
          })
          .catch((e) => app.log.error("outgoing webhook failed", { bot: row.botId, error: String((e as Error)?.stack ?? e) }))
          .finally(() => {
            inFlight.delete(row.id);
            wake();
          });
        inFlight.set(row.id, run);
      }
    }
    // Finished calls pump again; otherwise wake for the next due retry.
    if (inFlight.size) return;
    const next = await nextOutgoingWebhookDue(app.db);
    clearTimeout(timer);
    if (next !== null && !stopping.signal.aborted) timer = setTimeout(wake, Math.min(Math.max(next - Date.now(), 0), 60_000));
  }
  /** A pump nobody waits for (after a call, on a timer, when calls are queued); its failure is logged. */
  const wake = detached(app.log, "outgoing webhooks failed", pump);

  /** One call; null when stopping interrupted it (the row stays for the next run). */
  async function call(row: OutgoingWebhookCallRow): Promise<CallOutcome | null> {
    const bot = await findUserById(app.db, row.botId);
    const service = await findBotService(app.db, row.botId);
    const realm = bot && (await findRealmById(app.db, bot.realmId));
    if (!bot || !realm || !bot.isActive || bot.botType !== BOT_TYPE.outgoingWebhook || !service) return { kind: "drop" };
    const req = requestFor({
      bot: { email: bot.email, fullName: bot.fullName },
      service,
      serviceId: bot.id,
      trigger: row.trigger as Trigger,
      message: row.message,
      realmStringId: realm.stringId,
    });
    if ("refused" in req) return { kind: "fail", reply: failureReply(req.refused) };
    const url = new URL(service.base_url);
    const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
    let addresses: string[];
    try {
      addresses = (await lookup(url.hostname.replace(/^\[|\]$/g, ""), { all: true })).map((a) => a.address);
    } catch (e) {
      return { kind: "retry", failure: `The service's host name ${url.hostname} could not be resolved.` };
    }
    const why = refusal((policy ??= addressPolicy(cfg, ownAddresses(app))), url.hostname, port, addresses);
    if (why)
      return {
        kind: "fail",
        reply: failureReply("The bot's service is at an address this server may not call."),
        notice: { failure: `Its URL is refused (${why}); an administrator can allow it with outgoing_webhooks.allow.` },
      };
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": req.contentType, "User-Agent": `ZulipOutgoingWebhook/confab-${CONFAB_VERSION}` },
        body: req.body,
        redirect: "manual", // a redirect could lead anywhere, past the address checks
        signal: AbortSignal.any([AbortSignal.timeout(cfg.timeoutSeconds * 1000), stopping.signal]),
      });
      text = await readLimited(res);
    } catch (e) {
      if (stopping.signal.aborted) return null;
      if ((e as Error)?.name === "TimeoutError") return { kind: "retry", failure: `The request timed out after ${cfg.timeoutSeconds} seconds.` };
      return { kind: "retry", failure: "The request failed with a connection error." };
    }
    if (res.status >= 200 && res.status < 300) {
      const answer = replyFrom(service.interface, text);
      if ("invalid" in answer)
        return {
          kind: "fail",
          reply: failureReply("Invalid JSON in response"),
          notice: { failure: "The service's answer is not valid JSON.", response: text },
        };
      return { kind: "reply", content: answer.content };
    }
    if (res.status >= 500) return { kind: "retry", failure: `The service answered with status code ${res.status} (a server error).` };
    return { kind: "fail", reply: failureReply(`Third party responded with ${res.status}`), notice: { status: res.status, response: text } };
  }

  app.listeners.outgoingWebhookQueued = wake;
  const poll = pollMs === null ? undefined : setInterval(() => inFlight.size || wake(), pollMs);
  poll?.unref?.();
  await pump();
  return {
    async stop() {
      stopping.abort();
      clearTimeout(timer);
      clearInterval(poll);
      delete app.listeners.outgoingWebhookQueued;
      await Promise.allSettled([...inFlight.values()]);
    },
  };
}

async function readLimited(res: Response): Promise<string> {
  const bytes = await res.arrayBuffer();
  return new TextDecoder().decode(bytes.byteLength > MAX_ANSWER_BYTES ? bytes.slice(0, MAX_ANSWER_BYTES) : bytes);
}
