import type { Kysely } from 'kysely';
import { CONSOLE_LOG_MAX_LINES, LOG_LINE_MAX_CHARS, type LogLine } from '#shared/api/flows.ts';
import type { Database } from '../../db/schema.ts';

/**
 * A run's log lines as the API sends them: a page at a time, never the whole log (a robot may write
 * 5,000 lines of 2,000 characters, about 10 MB), each line cut to LOG_LINE_MAX_CHARS.
 */

/** A line as sent: at most LOG_LINE_MAX_CHARS characters, the cut marked with '…'. */
export function capLogLine(text: string): string {
  return text.length <= LOG_LINE_MAX_CHARS ? text : `${text.slice(0, LOG_LINE_MAX_CHARS - 1)}…`;
}

/** A stored level the log schema does not know reads as info rather than failing the whole run. */
function toLogLevel(level: string): LogLine['level'] {
  return level === 'warn' || level === 'error' ? level : 'info';
}

export interface LogPage {
  lines: LogLine[];
  /** Every line of the run. */
  total: number;
  hasMore: boolean;
  /** The seq of the page's last line: the `after` of the next page (null for an empty page). */
  next: number | null;
}

/** Up to `limit` lines of the run after seq `after` (from the first without it), in the order written. */
export async function logPage(db: Kysely<Database>, runId: string, page: { after?: number | undefined; limit: number }): Promise<LogPage> {
  let query = db.selectFrom('flow_run_logs').select(['seq', 'level', 'text', 'created_at']).where('run_id', '=', runId);
  if (page.after !== undefined) query = query.where('seq', '>', page.after);
  const [rows, count] = await Promise.all([
    // One more than asked for tells whether more follow.
    query.orderBy('seq').limit(page.limit + 1).execute(),
    db.selectFrom('flow_run_logs').select((eb) => eb.fn.countAll().as('n')).where('run_id', '=', runId).executeTakeFirst(),
  ]);
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    lines: shown.map((line) => ({ level: toLogLevel(line.level), timestamp: line.created_at, text: capLogLine(line.text) })),
    total: Number(count?.n ?? 0),
    hasMore: rows.length > page.limit,
    next: last === undefined ? null : Number(last.seq),
  };
}

/**
 * The launcher's console after the `since` lines it has: the next CONSOLE_LOG_MAX_LINES at most (it
 * asks again from where it got to), each cut to LOG_LINE_MAX_CHARS.
 */
export async function consoleLinesAfter(db: Kysely<Database>, runId: string, since: number): Promise<string[]> {
  const rows = await db.selectFrom('flow_run_logs').select('text').where('run_id', '=', runId).orderBy('seq').limit(CONSOLE_LOG_MAX_LINES).offset(since).execute();
  return rows.map((line) => capLogLine(line.text));
}

/** A finished run's console as its Output carries it: its last CONSOLE_LOG_MAX_LINES lines (the whole log is in the history). */
export async function consoleTail(db: Kysely<Database>, runId: string): Promise<string[]> {
  const rows = await db.selectFrom('flow_run_logs').select('text').where('run_id', '=', runId).orderBy('seq', 'desc').limit(CONSOLE_LOG_MAX_LINES).execute();
  return rows.reverse().map((line) => capLogLine(line.text));
}
