/** How runs execute in this server (app.ts fills them from the environment: RUN_CONCURRENCY, RUN_LEASE_MS, ...). */
export interface RunsOptions {
  /** Runs executing at once in this process (RUN_CONCURRENCY). */
  concurrency: number;
  /** Heap limit of each run's process, in MB. */
  memoryMb: number;
  /**
   * How long a claim on a running run holds without renewal (a server process's, or a machine's that
   * reports), after which the run is closed as 299 (RUN_LEASE_MS).
   */
  leaseMs: number;
  /** How long a stopped or timed-out robot may take to return before its thread is terminated. */
  stopGraceMs: number;
  /** Runs of one firm waiting (queued, or for a machine) before its launches get 429 (RUN_FIRM_QUEUE). */
  queuedPerFirm: number;
  /** Server runs of one firm executing at once over every server process (RUN_FIRM_CONCURRENCY). */
  runningPerFirm: number;
  /**
   * On PostgreSQL, a server run still queued this long after its launch is sent to the queue again, in
   * case its job was lost (the queue never holds two jobs of one run).
   */
  resendWaitingAfterMs: number;
  /** A module exporting `builtInFlows` for the run process to load robots from (tests); null: resources/flows. */
  flowsModule: string | null;
}
