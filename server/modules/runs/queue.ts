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
  enqueue(run: QueuedRun): Promise<void>;
  /**
   * Queues again runs whose job was dropped (their firm was at its limit when it was fetched) or may
   * have been lost (a process died between a launch's insert and its enqueue): a run that already
   * waits in the queue is not queued twice. Such a run has had its turn, so it goes before the runs of
   * its rank that are waiting (they came after it), and after every lower rank.
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
  /** Sorted by rank, then by arrival (a run sent again, before its rank: RunQueue.resend). */
  private readonly waiting: QueuedRun[] = [];
  private readonly runningByFirm = new Map<string, number>();
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

  async enqueue(run: QueuedRun): Promise<void> {
    this.insert(run, 'after its rank');
    this.pump();
  }

  async resend(runs: readonly QueuedRun[]): Promise<void> {
    const waiting = new Set(this.waiting.map((run) => run.runId));
    for (const run of runs) if (!waiting.has(run.runId)) this.insert(run, 'before its rank');
    this.pump();
  }

  /** Binary search for its place: after the lower ranks, then after or before the entries of its own rank. */
  private insert(run: QueuedRun, place: 'after its rank' | 'before its rank'): void {
    const goesFirst = (other: QueuedRun) => other.rank < run.rank || (place === 'after its rank' && other.rank === run.rank);
    let low = 0;
    let high = this.waiting.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (goesFirst(this.waiting[middle] as QueuedRun)) low = middle + 1;
      else high = middle;
    }
    this.waiting.splice(low, 0, { runId: run.runId, groupId: run.groupId, rank: run.rank });
  }

  async pause(): Promise<void> {
    this.execute = null;
  }

  async close(): Promise<void> {
    this.waiting.length = 0;
  }

  private pump(): void {
    while (this.execute !== null && this.active < this.concurrency) {
      // The first waiting run whose firm has room; a firm at its limit lets the others pass.
      const index = this.waiting.findIndex((run) => (this.runningByFirm.get(run.groupId) ?? 0) < this.perFirm);
      if (index < 0) return;
      const [run] = this.waiting.splice(index, 1) as [QueuedRun];
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
 * has a free slot takes the next run. A job's priority comes from its run's rank (jobPriority; pg-boss
 * takes the highest priority first, the oldest job among equals), so every process takes runs
 * round-robin across firms. A job fetched while
 * its firm is at its limit of running runs is dropped; the firm's next close sends its waiting runs
 * again (RunService.offerFirmSlot). pg-boss hands a job to one worker at a time; the run's own claim
 * (queued -> running, RunExecutor.claim) makes a redelivered job a no-op, so a run is executed at
 * most once even if a job expires and comes back. Every job is keyed by its run and the queue's
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

  async enqueue(run: QueuedRun): Promise<void> {
    await this.boss.send(RUN_QUEUE_NAME, { ...run }, jobOptions(run, 'after its rank'));
    // Wake one of this process's workers now rather than at its next poll (another process may still win the job).
    const id = this.workerIds[this.next++ % Math.max(1, this.workerIds.length)];
    if (id !== undefined) this.boss.notifyWorker(id);
  }

  async resend(runs: readonly QueuedRun[]): Promise<void> {
    if (runs.length === 0) return;
    // One statement for all of them; a run whose job still waits is skipped by the queue's unique key.
    await this.boss.insert(runs.map((run) => ({ name: RUN_QUEUE_NAME, data: { ...run }, ...jobOptions(run, 'before its rank') })));
    for (const id of this.workerIds) this.boss.notifyWorker(id);
  }

  async pause(): Promise<void> {
    await this.boss.offWork(RUN_QUEUE_NAME);
  }

  async close(): Promise<void> {
    await this.boss.stop({ graceful: false, wait: true, close: true });
  }
}

/** A run's job: never retried, keyed by the run, with its place in the fair order as priority. */
function jobOptions(run: QueuedRun, place: 'after its rank' | 'before its rank') {
  return { retryLimit: 0, singletonKey: run.runId, priority: jobPriority(run.rank, place) };
}

/**
 * pg-boss takes the highest priority first, and among equals the job created first: rank r is -2r, so
 * a lower rank goes first and same-rank jobs keep their order; a run sent again (resend) is -2r + 1,
 * ahead of the jobs of its rank, which were created after its first job, yet behind every lower rank.
 * Without it, a run whose job was dropped while its firm was at its limit would wait behind the whole
 * rest of its round once it had room.
 */
export function jobPriority(rank: number, place: 'after its rank' | 'before its rank'): number {
  const bounded = Math.min(Math.max(0, rank), 2 ** 30 - 1);
  return -2 * bounded + (place === 'before its rank' ? 1 : 0);
}
