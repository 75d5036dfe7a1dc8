#!/usr/bin/env bun
// A small agent for confab, to see the agent work and to start your own from. Point the server at it:
//
//   agent:
//     command: ["bun", "/path/to/confab/examples/echo-agent.ts"]
//
// (or CONFAB_AGENT_COMMAND='["bun","/path/to/confab/examples/echo-agent.ts"]'), restart, and mention
// @**Agent** in a topic. Each turn, confab starts this program with the conversation as JSON on
// standard input; what it prints is posted in the conversation by the agent's bot. Its environment
// holds the organization's secrets and EXT_* variables (docs/extensions.md, "The agent"); with
// EXT_EMAIL and EXT_API_KEY it can call the API as the agent's bot while the run lasts.
//
// It answers:  help | secrets (their names) | readme (the workspace README's first lines) | anything else (echoed)

interface Message {
  id: number;
  sender_full_name: string;
  content: string;
  is_agent_message: boolean;
}

interface Turn {
  turn: number;
  message_id: number;
  asked_by: { user_id: number; full_name: string };
  topic: string | null;
  workspace: { workspace_uuid: string; path: string } | null;
  messages: Message[];
}

const turn: Turn = JSON.parse(await Bun.stdin.text());
const asked = turn.messages.find((m) => m.id === turn.message_id);
const text = (asked?.content ?? "").replace(/@_?\*\*[^*]+\*\*/g, "").trim();

/** Calls confab's API as the agent's bot, with the run's key. */
async function api(method: string, path: string, params: Record<string, string> = {}) {
  const auth = "Basic " + btoa(`${process.env.EXT_EMAIL}:${process.env.EXT_API_KEY}`);
  const res = await fetch(`${process.env.EXT_API_URL}${path}`, {
    method,
    headers: { Authorization: auth },
    body: method === "GET" ? undefined : new URLSearchParams(params),
  });
  return (await res.json()) as Record<string, unknown>;
}

// Acknowledge the message with a reaction, as a person would (the API, not standard output).
await api("POST", `/messages/${turn.message_id}/reactions`, { emoji_name: "eyes" });

const word = text.split(/\s+/)[0]?.toLowerCase() ?? "";
if (word === "help" || !text) {
  console.log("I am the echo agent. Try: `secrets`, `readme`, or say anything and I will say it back.");
} else if (word === "secrets") {
  const names = Object.keys(process.env).filter((k) => !k.startsWith("EXT_") && !["PATH", "HOME", "LANG", "LANGUAGE"].includes(k) && !k.startsWith("LC_"));
  console.log(
    names.length ? `This run has ${names.length} organization secret(s): ${names.map((n) => `\`${n}\``).join(", ")}.` : "The organization has no secrets yet.",
  );
} else if (word === "readme") {
  if (!turn.workspace) console.log("This topic has no workspace.");
  else {
    const file = Bun.file(`${turn.workspace.path}/README.md`);
    const lines = (await file.exists()) ? (await file.text()).split("\n").slice(0, 5).join("\n") : "(no README.md yet)";
    console.log(`The README begins:\n\`\`\`\n${lines}\n\`\`\``);
  }
} else {
  const said = turn.messages.filter((m) => !m.is_agent_message).length;
  console.log(`${turn.asked_by.full_name}, you said: ${text}\n\n(turn ${turn.turn}; ${said} message(s) from people in this conversation so far)`);
}

export {}; // a module, for top-level await
