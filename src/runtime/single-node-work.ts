// The work that must run on one node only (docs/scaling.md, section 7): the agent, housekeeping (with
// the backlog catch-up) and the search indexer, the scheduler, the mail worker and the outgoing-webhook
// worker. On SQLite there is one node and it all starts with the server. On PostgreSQL it all runs under
// ONE lease (`SINGLETON_LEASE`): while this node holds it the work runs; when the lease is lost the work
// stops at once, and the node that takes the lease over starts it, each worker catching up on what waits
// in the database. One lease rather than one per worker: one connection, one place where the work starts
// and stops, and nothing to gain from spreading workers that are each light.
//
// Changes committed on a node without the lease reach the work through wakes (runtime/wakes.ts): a sent
// message that may ask the agent, mail or outgoing-webhook calls queued, a run cancelled. The workers
// that keep rows to do (mail every second, schedules every half second, outgoing webhooks every second
// on PostgreSQL) also poll, so a lost wake delays them by at most that much.
import type { App, SentMessage } from "../context";
import { cancelTurn, setTurnControl } from "../actions/agent-runs";
import { Lease } from "../db/lease";
import { logFailure } from "../lib/detached";
import { AgentRuntime } from "./agent";
import { startEmailWorker } from "./email";
import { startHousekeeping, startSearchIndexer } from "./housekeeping";
import { startOutgoingWebhooks } from "./outgoing-webhooks";
import { startScheduler } from "./scheduler";
import { onWake, sendWake, startWakes, stopWakes } from "./wakes";

/** The single-node work's lease key (plugin installs use their ids, which are positive). */
export const SINGLETON_LEASE = -1;

/** What `messageSent` relays: only a mention or a direct message with others can ask the agent. */
const mayAskAgent = (m: SentMessage) => (m.channelId !== null ? m.mentionedUserIds.length > 0 : m.participantIds.length >= 2);

export interface SingleNodeOptions {
  /** The mail worker's poll (ms); the server's default otherwise. */
  emailPollMs?: number;
}

export class SingleNodeWork {
  private agent: AgentRuntime | null = null;
  private lease: Lease | null = null;
  private stopWork: (() => Promise<void>) | null = null;
  /** Starts and stops one after another, in the order the lease came and went. */
  private chain: Promise<void> = Promise.resolve();
  private readonly clustered: boolean;
  private stopping = false;

  constructor(
    private readonly app: App,
    private readonly o: SingleNodeOptions = {},
  ) {
    this.clustered = app.config.storage.driver === "postgres";
  }

  /** Before the server answers anything: the agent hears every message sent (or, clustered, the lease holder does). */
  async listen() {
    if (!this.clustered) {
      this.agent = new AgentRuntime(this.app);
      this.agent.listen();
      return;
    }
    await startWakes(this.app);
    this.relay();
    for (const kind of ["messageSent", "mailQueued", "outgoingWebhookQueued"] as const)
      onWake(this.app, kind, (arg) => {
        if (this.lease?.held) (this.app.listeners[kind] as ((a: unknown) => void) | undefined)?.(arg);
      });
    onWake(this.app, "cancelRun", (id) => {
      if (this.lease?.held) cancelTurn(this.app, id as number);
    });
  }

  /** Starts the work (SQLite), or starts waiting for its lease (PostgreSQL). */
  async start() {
    if (!this.clustered) {
      this.stopWork = await this.begin(this.agent!);
      return;
    }
    this.lease = new Lease({
      url: this.app.config.storage.url,
      key: SINGLETON_LEASE,
      onAcquired: () => this.then(async () => await this.acquired()),
      onLost: (why) => {
        if (why !== "stopped") this.app.log.warn("single-node work stopped here: its lease was lost", { why });
        this.then(async () => await this.lost());
      },
    });
    this.lease.start();
  }

  /** Whether the work runs on this node now. */
  get running() {
    return this.stopWork !== null;
  }

  /**
   * Stops the work, then gives the lease up: the node that takes it over starts only once this one's
   * work has ended (a mail being sent is marked sent first, not sent again there).
   */
  async stop() {
    this.stopping = true;
    await this.chain;
    if (this.stopWork) await this.lost(false);
    await this.lease?.stop();
    await this.chain;
    if (this.clustered) {
      this.unrelay();
      await stopWakes(this.app);
    }
  }

  private then(fn: () => Promise<void>) {
    this.chain = this.chain.then(fn).catch(logFailure(this.app.log, "single-node work"));
  }

  private async acquired() {
    if (!this.lease?.held || this.stopWork || this.stopping) return;
    this.unrelay();
    const agent = new AgentRuntime(this.app);
    agent.listen();
    this.stopWork = await this.begin(agent);
    this.app.log.info("single-node work started here");
  }

  private async lost(relay = true) {
    const stop = this.stopWork;
    this.stopWork = null;
    await stop?.();
    if (this.clustered && relay) this.relay();
  }

  /** The agent (already listening) and the workers; returns their stop. */
  private async begin(agent: AgentRuntime): Promise<() => Promise<void>> {
    const app = this.app;
    await agent.settle();
    const outgoingWebhooks = await startOutgoingWebhooks(app, this.clustered ? 1000 : null);
    const stopHousekeeping = startHousekeeping(app, app.config.housekeeping.intervalSeconds);
    const stopIndexer = startSearchIndexer(app);
    const stopScheduler = await startScheduler(app);
    const stopEmail = startEmailWorker(app, this.o.emailPollMs);
    return async () => {
      stopHousekeeping();
      stopIndexer();
      stopScheduler();
      await stopEmail(); // a message being sent is marked sent; the rest waits in the outbox
      await agent.stop();
      await outgoingWebhooks.stop();
    };
  }

  /** Without the lease: what would wake the work here goes to the node that has it. */
  private relay() {
    const app = this.app;
    app.listeners.messageSent = (m) => mayAskAgent(m) && sendWake(app, "messageSent", m);
    app.listeners.mailQueued = () => sendWake(app, "mailQueued");
    app.listeners.outgoingWebhookQueued = () => sendWake(app, "outgoingWebhookQueued");
    setTurnControl(app, { cancel: (id) => sendWake(app, "cancelRun", id) });
  }

  private unrelay() {
    delete this.app.listeners.messageSent;
    delete this.app.listeners.mailQueued;
    delete this.app.listeners.outgoingWebhookQueued;
    setTurnControl(this.app, null);
  }
}
