// The email worker: mails the missed-message notifications whose batching period is over, then sends
// what waits in the outbox, retrying refusals with a doubling delay. Nothing here runs on a request.
import type { Transporter } from "nodemailer";
import { mailMissedMessages } from "../actions/missed-messages";
import type { App } from "../context";
import type { EmailOutboxRow } from "../db/schema";
import * as store from "../store/email";
import { sendMail, smtpError, smtpTransport } from "./smtp";

const BATCH = 20;
const MAX_DELAY_SECONDS = 3600;

/** Starts the worker (it does nothing while email is off); returns the stop function, which waits for a send under way. */
export function startEmailWorker(app: App, pollMs = 1000): () => Promise<void> {
  const c = app.config.email;
  if (!c.enabled) return async () => {};
  let transport: Transporter | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  const attempt = async (m: EmailOutboxRow) => {
    try {
      transport ??= await smtpTransport(c);
      const response = await sendMail(transport, c.from, { to: m.to, subject: m.subject, text: m.text, html: m.html, headers: m.headers ?? undefined });
      await app.tx(async (tx) => await store.updateOutbox(tx.db, m.id, { status: "sent", attempts: m.attempts + 1, sentAt: app.now(), lastError: null }));
      app.log.info("mail sent", { id: m.id, kind: m.kind, response });
    } catch (e) {
      const attempts = m.attempts + 1;
      const error = smtpError(e);
      if (attempts >= c.maxAttempts) {
        await app.tx(async (tx) => await store.updateOutbox(tx.db, m.id, { status: "failed", attempts, lastError: error }));
        app.log.error("mail given up", { id: m.id, kind: m.kind, attempts, error });
      } else {
        const delay = Math.min(MAX_DELAY_SECONDS, c.retryDelaySeconds * 2 ** (attempts - 1));
        await app.tx(async (tx) => await store.updateOutbox(tx.db, m.id, { attempts, nextAttemptAt: app.now() + delay, lastError: error }));
        app.log.warn("mail refused, will retry", { id: m.id, kind: m.kind, attempts, retry_in_seconds: delay, error });
      }
    }
  };

  const turn = async () => {
    // A batch of users per event-loop turn, so requests keep being served after a mention of many.
    for (;;) {
      const users = await store.dueMissedUserIds(app.db, app.now(), BATCH);
      for (const userId of users) await mailMissedMessages(app, userId);
      if (stopped || users.length < BATCH) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    for (;;) {
      const due = await store.dueOutbox(app.db, app.now(), BATCH);
      for (const m of due) if (!stopped) await attempt(m);
      if (stopped || due.length < BATCH) break;
    }
  };

  /** One turn at a time; a wake-up during a turn runs another right after it. */
  const run = () => {
    if (stopped) return;
    if (running !== null) {
      again = true;
      return;
    }
    running = turn()
      .catch((e) => app.log.error("email worker failed", { error: String((e as Error)?.stack ?? e) }))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          run();
        }
      });
  };

  app.listeners.mailQueued = run;
  const timer = setInterval(run, pollMs);
  timer.unref?.();
  return async () => {
    stopped = true;
    clearInterval(timer);
    delete app.listeners.mailQueued;
    await running;
    transport?.close();
  };
}
