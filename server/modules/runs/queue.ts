import PgBoss from 'pg-boss';

/** Where queued runs wait for a worker slot. Each run id is handed to `execute` once per enqueue. */
export interface RunQueue {
  start(execute: (runId: string) => Promise<void>): Promise<void>;
  enqueue(runId: string): Promise<void>;
  /** Stops taking runs; runs already executing are the caller's to end. Enqueued runs stay queued. */
  pause(): Promise<void>;
  close(): Promise<void>;
}

/**
 * SQLite (one server process): first in, first out, at most `concurrency` runs at a time. Runs left
 * queued by a previous process are enqueued again at start (RunService.recover).
 */
export class LocalRunQueue implements RunQueue {
  private readonly waiting: string[] = [];
  private active = 0;
  private execute: ((runId: string) => Promise<void>) | null = null;

  constructor(private readonly concurrency: number) {}

  async start(execute: (runId: string) => Promise<void>): Promise<void> {
    this.execute = execute;
    this.pump();
  }

  async enqueue(runId: string): Promise<void> {
    this.waiting.push(runId);
    this.pump();
  }

  async pause(): Promise<void> {
    this.execute = null;
  }

  async close(): Promise<void> {
    this.waiting.length = 0;
  }

  private pump(): void {
    while (this.execute !== null && this.active < this.concurrency && this.waiting.length > 0) {
      const runId = this.waiting.shift() as string;
      const execute = this.execute;
      this.active += 1;
      void execute(runId).finally(() => {
        this.active -= 1;
        this.pump();
      });
    }
  }
}

export const RUN_QUEUE_NAME = 'flow-runs';

/**
 * PostgreSQL (one or more server processes): pg-boss jobs in the same database, so whichever process
 * has a free slot takes the next run. pg-boss hands a job to one worker at a time; the run's own
 * claim (queued -> running, RunService.execute) makes a redelivered job a no-op, so a run is executed
 * at most once even if a job expires and comes back.
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
    this.boss = new PgBoss({ connectionString, max: 3, schedule: false, supervise: true, migrate: true });
    this.boss.on('error', onError);
  }

  async start(execute: (runId: string) => Promise<void>): Promise<void> {
    await this.boss.start();
    // Runs are never retried by the queue: a run that failed is closed with its result, not run again.
    await this.boss.createQueue(RUN_QUEUE_NAME, { name: RUN_QUEUE_NAME, retryLimit: 0, expireInSeconds: 2 * 3600 });
    // One pg-boss worker per slot: each fetches one job and executes it before fetching the next.
    for (let slot = 0; slot < this.concurrency; slot += 1) {
      const id = await this.boss.work<{ runId: string }>(RUN_QUEUE_NAME, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async (jobs) => {
        for (const job of jobs) await execute(job.data.runId);
      });
      this.workerIds.push(id);
    }
  }

  async enqueue(runId: string): Promise<void> {
    await this.boss.send(RUN_QUEUE_NAME, { runId }, { retryLimit: 0 });
    // Wake one of this process's workers now rather than at its next poll (another process may still win the job).
    const id = this.workerIds[this.next++ % Math.max(1, this.workerIds.length)];
    if (id !== undefined) this.boss.notifyWorker(id);
  }

  async pause(): Promise<void> {
    await this.boss.offWork(RUN_QUEUE_NAME);
  }

  async close(): Promise<void> {
    await this.boss.stop({ graceful: false, wait: true, close: true });
  }
}
