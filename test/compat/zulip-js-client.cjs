// Runs under Node (as zulip-js's users run it): `node zulip-js-client.cjs URL EMAIL API_KEY`.
// Drives Zulip's own JavaScript client against confab and prints what it got back as one JSON line.
const zulipInit = require("zulip-js");

async function main() {
  const [realm, username, apiKey] = process.argv.slice(2);
  const z = await zulipInit({ username, apiKey, realm });
  const out = {};
  out.me = await z.users.me.getProfile();
  out.subscribe = await z.callEndpoint("/users/me/subscriptions", "POST", { subscriptions: JSON.stringify([{ name: "general" }]) });
  out.register = await z.queues.register({ event_types: ["message"] });
  out.send = await z.messages.send({ to: "general", type: "stream", topic: "hello", content: "Hi from **zulip-js**" });
  out.events = await z.events.retrieve({ queue_id: out.register.queue_id, last_event_id: -1, dont_block: true });
  out.fetch = await z.messages.retrieve({ anchor: "newest", num_before: 5, num_after: 0, narrow: [{ operator: "stream", operand: "general" }] });
  out.streams = await z.streams.retrieve();
  out.users = await z.users.retrieve();
  out.settings = await z.server.settings();
  out.edit = await z.messages.update({ message_id: out.send.id, content: "Edited by zulip-js" });
  out.star = await z.messages.flags.add({ messages: [out.send.id], flag: "starred" });
  out.after = await z.messages.retrieve({ anchor: out.send.id, num_before: 0, num_after: 0 });
  process.stdout.write(JSON.stringify(out) + "\n");
}

main().catch((e) => {
  process.stderr.write(String(e && e.stack ? e.stack : e) + "\n");
  process.exit(1);
});
