// A real SMTP server in the test process (the smtp-server package) that records every message it
// accepts, parsed (mailparser); it can refuse the next messages, to exercise the outbox's retries.
// Login is optional; the one account is chat / s3cret.
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  headers: Map<string, unknown>;
  raw: string;
}

export interface SmtpSink {
  port: number;
  mails: ReceivedMail[];
  /** CONFAB_* settings pointing a server at this sink. */
  env: Record<string, string>;
  /** Refuse the next `n` messages with a temporary (451) error. */
  refuseNext(n: number): void;
  /** The first mail (after those already taken by earlier calls) matching `pred`, waiting up to `ms`. */
  next(pred?: (m: ReceivedMail) => boolean, ms?: number): Promise<ReceivedMail>;
  /** Waits `ms` and returns the mails matching `pred` that arrived and were not taken. */
  settle(pred?: (m: ReceivedMail) => boolean, ms?: number): Promise<ReceivedMail[]>;
  stop(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  let refusals = 0;
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    // One account, for tests of SMTP login: chat / s3cret.
    onAuth(auth, _session, callback) {
      if (auth.username === "chat" && auth.password === "s3cret") callback(null, { user: "chat" });
      else callback(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
    },
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", async () => {
        if (refusals > 0) {
          refusals--;
          const err = Object.assign(new Error("Mailbox busy, try again later"), { responseCode: 451 });
          return callback(err);
        }
        const raw = Buffer.concat(chunks).toString("utf8");
        const parsed = await simpleParser(raw);
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: parsed.subject ?? "",
          text: parsed.text ?? "",
          html: typeof parsed.html === "string" ? parsed.html : "",
          headers: parsed.headers,
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  const untaken = (pred: (m: ReceivedMail) => boolean) => mails.filter((m) => !taken.has(m) && pred(m));
  return {
    port,
    mails,
    env: {
      CONFAB_EMAIL_ENABLED: "true",
      CONFAB_EMAIL_HOST: "127.0.0.1",
      CONFAB_EMAIL_PORT: String(port),
      CONFAB_EMAIL_SECURITY: "none",
      CONFAB_EMAIL_FROM: "Confab <chat@example.com>",
    },
    refuseNext(n) {
      refusals = n;
    },
    async next(pred = () => true, ms = 5000) {
      const end = Date.now() + ms;
      for (;;) {
        const m = untaken(pred)[0];
        if (m) {
          taken.add(m);
          return m;
        }
        if (Date.now() > end)
          throw new Error(`no matching mail within ${ms} ms (received: ${mails.map((x) => `${x.to} "${x.subject}"`).join(", ") || "none"})`);
        await Bun.sleep(20);
      }
    },
    async settle(pred = () => true, ms = 500) {
      await Bun.sleep(ms);
      const found = untaken(pred);
      for (const m of found) taken.add(m);
      return found;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a mail's text that starts with `prefix`. */
export function linkIn(mail: ReceivedMail, prefix: string): string {
  const m = mail.text.match(new RegExp(`${prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\S*`));
  if (!m) throw new Error(`no link starting ${prefix} in: ${mail.text}`);
  return m[0];
}

/** A header as sent (unfolded), from the raw message's header section. */
export function rawHeader(mail: ReceivedMail, name: string): string | null {
  const head = mail.raw.split("\r\n\r\n")[0]!.replace(/\r\n[ \t]+/g, " ");
  const m = head.match(new RegExp(`^${name}: (.*)$`, "im"));
  return m ? m[1]! : null;
}
