import type { Command } from "commander";
import { listOutbox } from "../../src/actions/email";
import { testMail } from "../../src/domain/email";
import { isValidEmail } from "../../src/domain/users";
import { checkEmailConfig, sendMail, smtpError, smtpTransport } from "../../src/runtime/smtp";
import { action, CliError, configFrom, usingApp, withCommon } from "../common";

export function register(program: Command) {
  const email = program.command("email").description("outgoing email");

  withCommon(email.command("test").description("send a test message now and print the SMTP server's answer").argument("<address>")).action(
    action(async (address: string, opts) => {
      const config = configFrom(opts);
      if (!isValidEmail(address)) throw new CliError(`not an email address: ${address}`);
      const check = await checkEmailConfig(config);
      if (!config.email.enabled) throw new CliError(check.summary);
      if (!check.ok) throw new CliError(check.summary);
      const transport = await smtpTransport(config.email);
      try {
        const response = await sendMail(transport, config.email.from, testMail(address, config.externalUrl));
        console.log(`sent to ${address} through ${config.email.host}:${config.email.port}: ${response}`);
      } catch (e) {
        throw new CliError(`${config.email.host}:${config.email.port} refused the message: ${smtpError(e)}`);
      } finally {
        transport.close();
      }
    }),
  );

  withCommon(email.command("outbox").description("list queued, sent and given-up mail, newest first"))
    .option("--status <status>", "only pending, sent or failed (given up) mail")
    .option("--limit <n>", "how many", "50")
    .option("--json", "print JSON")
    .action(
      action((opts) =>
        usingApp(opts, async (app) => {
          if (opts.status && !["pending", "sent", "failed"].includes(opts.status)) throw new CliError("--status: pending, sent or failed");
          const rows = await listOutbox(app, { status: opts.status, limit: Number(opts.limit) || 50 });
          if (opts.json) return console.log(JSON.stringify(rows));
          const when = (t: number | null) => (t === null ? "-" : new Date(t * 1000).toISOString());
          for (const m of rows)
            console.log(
              [
                m.id,
                m.status,
                m.kind,
                m.to,
                `attempts ${m.attempts}`,
                m.status === "sent" ? `sent ${when(m.sentAt)}` : m.status === "pending" ? `next ${when(m.nextAttemptAt)}` : "given up",
                m.lastError ?? "",
                m.subject,
              ].join("\t"),
            );
          if (!rows.length)
            console.log(app.config.email.enabled ? "the outbox is empty" : "the outbox is empty (email is not configured: email.enabled is off)");
        }),
      ),
    );
}
