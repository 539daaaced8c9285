import { createRequire } from 'node:module';
import type PgBoss from 'pg-boss';

/** A run handed to the queue: its firm and its fair-queue rank (runs/reservations.ts nextQueueRank). */
export interface QueuedRun {
  runId: string;
  groupId: string;
  rank: number;
}

/**
 * Where queued runs wait for a slot. Each run is handed to `execute` once per enqueue, lowest rank
 * first (oldest first among equals), so firms are served round-robin.
 */
export interface RunQueue {
  start(execute: (run: QueuedRun) => Promise<void>): Promise<void>;
  /** `delayMs`: not before then (a run whose firm was at its limit of running runs). */
  enqueue(run: QueuedRun, delayMs?: number): Promise<void>;
  /**
   * Queues again runs whose job may have been lost (a process died between a launch's insert and its
   * enqueue): a run that already waits in the queue is not queued twice.
   */
  resend(runs: readonly QueuedRun[]): Promise<void>;
  /** Stops taking runs; runs already executing are the caller's to end. Enqueued runs stay queued. */
  pause(): Promise<void>;
  close(): Promise<void>;
}

/**
 * SQLite (one server process): at most `concurrency` runs at a time, and at most `perFirm` of one
 * firm while another firm's run waits behind them; the lowest rank goes first. Runs left queued by a
 * previous process are enqueued again at start (RunService.recover).
 */
export class LocalRunQueue implements RunQueue {
  /** Sorted by rank, then by arrival. */
  private readonly waiting: (QueuedRun & { arrival: number })[] = [];
  private readonly runningByFirm = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private arrivals = 0;
  private active = 0;
  private execute: ((run: QueuedRun) => Promise<void>) | null = null;

  constructor(
    private readonly concurrency: number,
    private readonly perFirm: number = Number.POSITIVE_INFINITY,
  ) {}

  async start(execute: (run: QueuedRun) => Promise<void>): Promise<void> {
    this.execute = execute;
    this.pump();
  }

  async enqueue(run: QueuedRun, delayMs = 0): Promise<void> {
    if (delayMs > 0) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        void this.enqueue(run);
      }, delayMs);
      this.timers.add(timer);
      return;
    }
    const entry = { ...run, arrival: (this.arrivals += 1) };
    // After every entry that goes first: binary search on (rank, arrival).
    let low = 0;
    let high = this.waiting.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.waiting[middle] as QueuedRun).rank <= entry.rank) low = middle + 1;
      else high = middle;
    }
    this.waiting.splice(low, 0, entry);
    this.pump();
  }

  async resend(runs: readonly QueuedRun[]): Promise<void> {
    const waiting = new Set(this.waiting.map((run) => run.runId));
    for (const run of runs) if (!waiting.has(run.runId)) await this.enqueue(run);
  }

  async pause(): Promise<void> {
    this.execute = null;
  }

  async close(): Promise<void> {
    this.waiting.length = 0;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private pump(): void {
    while (this.execute !== null && this.active < this.concurrency) {
      // The first waiting run whose firm has room; a firm at its limit lets the others pass.
      const index = this.waiting.findIndex((run) => (this.runningByFirm.get(run.groupId) ?? 0) < this.perFirm);
      if (index < 0) return;
      const [run] = this.waiting.splice(index, 1) as [QueuedRun & { arrival: number }];
      const execute = this.execute;
      this.active += 1;
      this.runningByFirm.set(run.groupId, (this.runningByFirm.get(run.groupId) ?? 0) + 1);
      void execute({ runId: run.runId, groupId: run.groupId, rank: run.rank }).finally(() => {
        this.active -= 1;
        const left = (this.runningByFirm.get(run.groupId) ?? 1) - 1;
        if (left > 0) this.runningByFirm.set(run.groupId, left);
        else this.runningByFirm.delete(run.groupId);
        this.pump();
      });
    }
  }
}

export const RUN_QUEUE_NAME = 'flow-runs';

/**
 * PostgreSQL (one or more server processes): pg-boss jobs in the same database, so whichever process
 * has a free slot takes the next run. A job's priority is its run's rank, negated (pg-boss takes the
 * highest priority first), so every process takes runs round-robin across firms; a firm at its limit
 * of running runs has its run sent back a second later (RunExecutor.executeClaimed). pg-boss hands a job to one worker at a time; the run's own
 * claim (queued -> running, RunExecutor.claim) makes a redelivered job a no-op, so a run is executed
 * at most once even if a job expires and comes back. Every job is keyed by its run and the queue's
 * policy is pg-boss's 'short' (one waiting job per key), so a run sent again while its job still
 * waits is not queued twice (resend).
 */
export class PgBossRunQueue implements RunQueue {
  private readonly boss: PgBoss;
  private readonly workerIds: string[] = [];
  private next = 0;

  constructor(
    connectionString: string,
    private readonly concurrency: number,
    onError: (error: Error) => void,
  ) {
    // A small pool of its own: job fetches and state changes, apart from the app's queries.
    // pg-boss (and pg under it) is loaded only here: a SQLite server never reads its files at start.
    const PgBossClass = createRequire(import.meta.url)('pg-boss') as typeof PgBoss;
    this.boss = new PgBossClass({ connectionString, max: 3, schedule: false, supervise: true, migrate: true });
    this.boss.on('error', onError);
  }

  async start(execute: (run: QueuedRun) => Promise<void>): Promise<void> {
    await this.boss.start();
    // Runs are never retried by the queue: a run that failed is closed with its result, not run again.
    const queue: PgBoss.Queue = { name: RUN_QUEUE_NAME, policy: 'short', retryLimit: 0, expireInSeconds: 2 * 3600 };
    await this.boss.createQueue(RUN_QUEUE_NAME, queue);
    // A queue created by an earlier version had the standard policy: jobs sent from now on are keyed.
    await this.boss.updateQueue(RUN_QUEUE_NAME, queue);
    // One pg-boss worker per slot: each fetches one job and executes it before fetching the next.
    for (let slot = 0; slot < this.concurrency; slot += 1) {
      const id = await this.boss.work<QueuedRun>(RUN_QUEUE_NAME, { batchSize: 1, pollingIntervalSeconds: 0.5, priority: true }, async (jobs) => {
        for (const job of jobs) await execute(job.data);
      });
      this.workerIds.push(id);
    }
  }

  async enqueue(run: QueuedRun, delayMs = 0): Promise<void> {
    await this.boss.send(RUN_QUEUE_NAME, { ...run }, { ...jobOptions(run), ...(delayMs > 0 && { startAfter: new Date(Date.now() + delayMs) }) });
    if (delayMs > 0) return;
    // Wake one of this process's workers now rather than at its next poll (another process may still win the job).
    const id = this.workerIds[this.next++ % Math.max(1, this.workerIds.length)];
    if (id !== undefined) this.boss.notifyWorker(id);
  }

  async resend(runs: readonly QueuedRun[]): Promise<void> {
    if (runs.length === 0) return;
    // One statement for all of them; a run whose job still waits is skipped by the queue's unique key.
    await this.boss.insert(runs.map((run) => ({ name: RUN_QUEUE_NAME, data: { ...run }, ...jobOptions(run) })));
    for (const id of this.workerIds) this.boss.notifyWorker(id);
  }

  async pause(): Promise<void> {
    await this.boss.offWork(RUN_QUEUE_NAME);
  }

  async close(): Promise<void> {
    await this.boss.stop({ graceful: false, wait: true, close: true });
  }
}

/** A run's job: never retried, keyed by the run, the firm's fair rank as priority (pg-boss takes the highest first). */
function jobOptions(run: QueuedRun) {
  return { retryLimit: 0, singletonKey: run.runId, priority: -Math.min(run.rank, 2 ** 31 - 1) };
}
