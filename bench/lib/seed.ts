// Fills a fresh data directory for a benchmark through confab's own actions (no HTTP, no passwords,
// so thousands of users take seconds), then closes it for the executable to serve.
import { bootstrapFirstRealm } from "../../src/actions/realms";
import { createUser } from "../../src/actions/users";
import { createApp } from "../../src/app";
import { loadConfig } from "../../src/config";
import { createLogger } from "../../src/lib/log";

export interface Cred {
  id: number;
  email: string;
  key: string;
}

export async function seedUsers(dataDir: string, count: number): Promise<{ owner: Cred; users: Cred[] }> {
  const app = await createApp(loadConfig({ dataDir }, {}), { batching: false, log: createLogger("error") });
  try {
    const first = (await bootstrapFirstRealm(app))!;
    await first.setPassword(); // the owner's password (argon2id), before the app closes
    const users: Cred[] = [];
    for (let i = 0; i < count; i++) {
      const u = await createUser(app, first.realm, { email: `bench${i}@example.com`, fullName: `Bench User ${i}` });
      users.push({ id: u.id, email: u.email, key: u.apiKey });
    }
    return { owner: { id: first.owner.id, email: first.owner.email, key: first.owner.apiKey }, users };
  } finally {
    app.close();
  }
}

export const basic = (c: Cred) => "Basic " + Buffer.from(`${c.email}:${c.key}`).toString("base64");
