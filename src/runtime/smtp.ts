// The SMTP client: nodemailer, configured from `email.*`. Only the email worker, `confab email test` and
// the configuration check talk to the SMTP server.
import { readFileSync } from "node:fs";
import type { Transporter } from "nodemailer";
import type { Config, EmailConfig } from "../config";
import type { Mail } from "../domain/email";
import { oneLine } from "../domain/email";

/** The SMTP password: the first line of email.password_file. */
function readPassword(c: EmailConfig): string {
  try {
    return readFileSync(c.passwordFile, "utf8").split(/\r?\n/)[0]!;
  } catch (e) {
    throw new Error(`email.password_file: cannot read ${c.passwordFile}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** nodemailer is loaded on first use: most commands never send mail, and it costs startup time. */
export async function smtpTransport(c: EmailConfig): Promise<Transporter> {
  const { default: nodemailer } = await import("nodemailer");
  return nodemailer.createTransport({
    // A few reused connections: a burst of notifications does not pay a handshake per message.
    pool: true,
    maxConnections: 2,
    host: c.host,
    port: c.port,
    secure: c.security === "tls",
    requireTLS: c.security === "starttls",
    ignoreTLS: c.security === "none",
    auth: c.username ? { user: c.username, pass: c.passwordFile ? readPassword(c) : "" } : undefined,
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 60_000,
  });
}

/** Sends one message; resolves to the server's final answer (e.g. "250 2.0.0 OK"), rejects with its refusal. */
export async function sendMail(transport: Transporter, from: string, mail: Mail): Promise<string> {
  const info = await transport.sendMail({
    from,
    to: mail.to,
    subject: oneLine(mail.subject),
    text: mail.text,
    html: mail.html,
    headers: Object.fromEntries(Object.entries(mail.headers ?? {}).map(([k, v]) => [k, oneLine(v)])),
  });
  return String(info.response ?? "");
}

/** An SMTP failure in one line, without anything secret (nodemailer's messages carry no password). */
export const smtpError = (e: unknown) => oneLine(String((e as Error)?.message ?? e)).slice(0, 500);

/**
 * Checks the `email.*` settings, for `confab doctor` and `confab email test`: what is missing or
 * unreadable, and with `connect`, whether the SMTP server accepts a connection and the login.
 */
export async function checkEmailConfig(config: Config, o: { connect?: boolean } = {}): Promise<{ ok: boolean; problems: string[]; summary: string }> {
  const c = config.email;
  if (!c.enabled) return { ok: true, problems: [], summary: "email is not configured (email.enabled is off): nothing is mailed" };
  const problems: string[] = [];
  if (!c.host) problems.push("email.host is empty");
  if (!/@/.test(c.from)) problems.push(`email.from is not an address: ${c.from}`);
  if (c.passwordFile)
    try {
      readPassword(c);
    } catch (e) {
      problems.push((e as Error).message);
    }
  if (c.passwordFile && !c.username) problems.push("email.password_file is set but email.username is empty");
  if (c.security === "none" && c.username && !["localhost", "127.0.0.1", "::1"].includes(c.host))
    problems.push("email.security is none: the SMTP password would cross the network unencrypted");
  if (!problems.length && o.connect) {
    const t = await smtpTransport(c);
    try {
      await t.verify();
    } catch (e) {
      problems.push(`SMTP server ${c.host}:${c.port}: ${smtpError(e)}`);
    } finally {
      t.close();
    }
  }
  const where = `${c.host}:${c.port} (${c.security}${c.username ? `, as ${c.username}` : ""}), from ${c.from}`;
  return { ok: !problems.length, problems, summary: problems.length ? `email: ${problems.join("; ")}` : `email: ${where}` };
}
