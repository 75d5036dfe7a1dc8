// Counters for GET /metrics (Prometheus text format). Recording is on hot paths (every request, every
// commit), so it only bumps numbers in preallocated typed arrays and plain objects; label strings
// are built once, at registration, and text only when a scrape asks for it.

/** Upper bounds, in seconds, shared by every latency histogram. */
const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export class Histogram {
  private readonly counts: Float64Array;
  private sum = 0;
  private n = 0;

  constructor(readonly bounds: readonly number[] = SECONDS) {
    this.counts = new Float64Array(bounds.length);
  }

  observe(v: number) {
    this.sum += v;
    this.n++;
    const b = this.bounds;
    for (let i = 0; i < b.length; i++)
      if (v <= b[i]!) {
        this.counts[i]!++;
        return;
      }
  }

  /** The histogram's lines, for a metric name and its labels (`route="GET /users",`, or ""). */
  lines(name: string, labels = ""): string[] {
    const out: string[] = [];
    let cumulative = 0;
    for (let i = 0; i < this.bounds.length; i++) {
      cumulative += this.counts[i]!;
      out.push(`${name}_bucket{${labels}le="${this.bounds[i]}"} ${cumulative}`);
    }
    const bare = labels.replace(/,$/, "");
    out.push(
      `${name}_bucket{${labels}le="+Inf"} ${this.n}`,
      `${name}_sum${bare ? `{${bare}}` : ""} ${this.sum}`,
      `${name}_count${bare ? `{${bare}}` : ""} ${this.n}`,
    );
    return out;
  }
}

/** Requests by route and status, and their latency per route. */
export class RequestMetrics {
  private readonly labels: string[] = [];
  private readonly statuses: Record<number, number>[] = [];
  private readonly latency: Histogram[] = [];

  /** A route's slot, once per route when the server is built; `label` is e.g. "GET /users/{user_id}". */
  register(label: string): number {
    const known = this.labels.indexOf(label);
    if (known >= 0) return known;
    this.labels.push(label.replace(/["\\\n]/g, "_"));
    this.statuses.push({});
    this.latency.push(new Histogram());
    return this.labels.length - 1;
  }

  observe(slot: number, status: number, seconds: number) {
    const s = this.statuses[slot]!;
    s[status] = (s[status] ?? 0) + 1;
    this.latency[slot]!.observe(seconds);
  }

  lines(): string[] {
    const out = ["# HELP confab_http_requests_total HTTP requests answered, by route and status.", "# TYPE confab_http_requests_total counter"];
    this.labels.forEach((l, i) => {
      for (const [status, n] of Object.entries(this.statuses[i]!)) out.push(`confab_http_requests_total{route="${l}",status="${status}"} ${n}`);
    });
    out.push("# HELP confab_http_request_duration_seconds Time to answer, by route.", "# TYPE confab_http_request_duration_seconds histogram");
    this.labels.forEach((l, i) => {
      if (Object.keys(this.statuses[i]!).length) out.push(...this.latency[i]!.lines("confab_http_request_duration_seconds", `route="${l}",`));
    });
    return out;
  }
}

/** Batch sizes: actions per COMMIT. */
const BATCH_SIZES = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];

/** Everything the server counts as it runs (what it can read at scrape time is read then instead). */
export class ServerMetrics {
  readonly requests = new RequestMetrics();
  /** Actions in each committed batch (group commit). */
  readonly batchSize = new Histogram(BATCH_SIZES);
  /** Time COMMIT took, and the WAL fsync after it. */
  readonly commitSeconds = new Histogram();
  readonly fsyncSeconds = new Histogram();
  /** Time each WAL checkpoint in the helper process took (db/checkpointer.ts). */
  readonly checkpointSeconds = new Histogram();
  messagesSent = 0;
  pluginRestarts = 0;
  agentRunsStarted = 0;
  rateLimited = 0;
}

/** One metric with its HELP and TYPE lines: `[["", 3]]` for no labels, `[['state="running"', 2]]` with. */
export function metric(name: string, type: "counter" | "gauge", help: string, values: [string, number][]): string[] {
  return [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, ...values.map(([labels, v]) => `${name}${labels ? `{${labels}}` : ""} ${v}`)];
}
