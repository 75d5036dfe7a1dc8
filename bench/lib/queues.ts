// Event queues as benchmark clients hold them: one message-event queue per authorization.

export interface HeldQueue {
  /** The server (node) that holds it. */
  url: string;
  auth: string;
  id: string;
  /** The register answer's last_event_id, where a poll starts. */
  last: number;
}

/** Registers a message-event queue per authorization, spread in turn over `urls` (one server or several nodes). */
export async function registerQueues(urls: string | string[], auths: string[]): Promise<HeldQueue[]> {
  const servers = typeof urls === "string" ? [urls] : urls;
  const queues: HeldQueue[] = [];
  for (const [i, auth] of auths.entries()) {
    const url = servers[i % servers.length]!;
    const res = await fetch(`${url}/api/v1/register`, {
      method: "POST",
      headers: { Authorization: auth, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ event_types: '["message"]', fetch_event_types: '["message"]' }),
    });
    const body = (await res.json()) as { queue_id: string; last_event_id: number };
    if (!res.ok) throw new Error(`register failed: ${JSON.stringify(body)}`);
    queues.push({ url, auth, id: body.queue_id, last: body.last_event_id });
  }
  return queues;
}

export async function deleteQueues(queues: HeldQueue[]) {
  for (const q of queues)
    await fetch(`${q.url}/api/v1/events?${new URLSearchParams({ queue_id: q.id })}`, { method: "DELETE", headers: { Authorization: q.auth } });
}
