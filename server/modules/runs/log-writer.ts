import type { Kysely } from 'kysely';
import type { RobotLogLevel } from '#shared/flows/robot.ts';
import type { Database } from '../../db/schema.ts';

/** Log lines kept per run; a robot that writes more gets one line saying so (LOG_LIMIT_NOTICE). */
export const MAX_LOG_LINES = 5_000;
export const LOG_LIMIT_NOTICE = `… el robot ha escrito más de ${MAX_LOG_LINES} líneas; no se guardan más`;
const MAX_LINE_LENGTH = 2_000;
const LOG_FLUSH_MS = 200;

/** Log lines and progress of one running run, written in small batches instead of one query per line. */
export class RunLogWriter {
  private pending: { seq: number; level: RobotLogLevel; text: string; at: string }[] = [];
  private iterations: { successful: number; total: number } | null = null;
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  private lines = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly runId: string,
    private seq: number,
    private readonly now: () => Date,
    private readonly onWritten: () => void,
    private readonly onError: (error: unknown) => void,
  ) {}

  log(level: RobotLogLevel, text: string): void {
    this.lines += 1;
    if (this.lines > MAX_LOG_LINES + 1) return;
    const line = this.lines > MAX_LOG_LINES ? LOG_LIMIT_NOTICE : text.slice(0, MAX_LINE_LENGTH);
    this.pending.push({ seq: this.seq++, level, text: line, at: this.now().toISOString() });
    this.schedule();
  }

  progress(successful: number, total: number): void {
    if (!Number.isFinite(successful) || !Number.isFinite(total)) return;
    this.iterations = { successful: Math.max(0, Math.trunc(successful)), total: Math.max(0, Math.trunc(total)) };
    this.schedule();
  }

  /** Writes what is pending; resolves once everything logged so far is in the database. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const lines = this.pending;
    const iterations = this.iterations;
    this.pending = [];
    this.iterations = null;
    if (lines.length === 0 && iterations === null) return this.chain;
    this.chain = this.chain
      .then(async () => {
        if (lines.length > 0) {
          await this.db
            .insertInto('flow_run_logs')
            .values(lines.map((line) => ({ run_id: this.runId, seq: line.seq, level: line.level, text: line.text, created_at: line.at })))
            .execute();
        }
        if (iterations !== null) {
          await this.db
            .updateTable('flow_runs')
            .set({ successful_iterations: iterations.successful, total_iterations: iterations.total })
            .where('id', '=', this.runId)
            .where('state', '=', 'running')
            .execute();
        }
        this.onWritten();
      })
      .catch(this.onError);
    return this.chain;
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => void this.flush(), LOG_FLUSH_MS);
  }
}
