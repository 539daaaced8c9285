import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONSOLE_LOG_MAX_LINES, LOG_LINE_MAX_CHARS, type ExecutionStateResponse, type FlowLogDetail } from '#shared/api/flows.ts';
import { connectDatabase } from '../../db/connect.ts';
import type { Database } from '../../db/schema.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { insertFlow, insertRun, memberOf } from './fixtures.ts';

/**
 * A run's log is never answered whole: the history's detail sends a page of lines with a cursor, and
 * the launcher's state a bounded batch after `since`, each line cut to LOG_LINE_MAX_CHARS. The
 * robots' writer keeps up to 5,000 lines of 2,000 characters (about 10 MB in one answer before).
 */

const NOW = new Date('2025-03-20T10:00:00.000Z');

let server: TestServer;
let db: Kysely<Database>;
let ana: CookieJar;
let anaMember: { userId: string; groupId: string };

beforeEach(async () => {
  server = await startTestServer({ now: () => NOW });
  db = connectDatabase(server.database);
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
  anaMember = await memberOf(db, 'ana@asesoria.es');
  await insertFlow(db, { id: 'robot-de-prueba', name: 'Validar identificadores' });
});
afterEach(async () => {
  await db.destroy();
  await server.close();
});

/** A line's text as the robot wrote it: 'Línea 17 ' and padding to `length` characters. */
const lineText = (index: number, length = 40) => `Línea ${index} `.padEnd(length, 'x');

/** A run with `count` log lines (seq 0..count-1), the `long` ones written `longLength` characters long. */
async function runWithLines(count: number, options: { result?: string | null; long?: ReadonlySet<number>; longLength?: number; filler?: number } = {}): Promise<{ id: string; token: string }> {
  const id = await insertRun(db, { ...anaMember, flowId: 'robot-de-prueba', createdAt: NOW.toISOString(), result: options.result === undefined ? 'Success' : options.result });
  for (let start = 0; start < count; start += 500) {
    const seqs = Array.from({ length: Math.min(500, count - start) }, (_, offset) => start + offset);
    await db
      .insertInto('flow_run_logs')
      .values(seqs.map((seq) => ({
        run_id: id, seq, level: seq % 7 === 0 ? 'warn' : 'info', created_at: NOW.toISOString(),
        text: lineText(seq, options.long?.has(seq) ? (options.longLength ?? 5_000) : (options.filler ?? 40)),
      })))
      .execute();
  }
  const { execution_token: token } = await db.selectFrom('flow_runs').select('execution_token').where('id', '=', id).executeTakeFirstOrThrow();
  return { id, token };
}

const detail = async (id: string, query = ''): Promise<{ body: FlowLogDetail; bytes: number }> => {
  const response = await ana.get(`/api/flowlog/${id}${query}`);
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  return { body: response.json(), bytes: response.rawPayload.length };
};

describe('GET /api/flowlog/:id pages a run’s log', () => {
  it('answers the first 200 lines of 5,001 with the total and a cursor, then the next pages until the last', async () => {
    // 5,001 lines of 2,000 characters: what a robot that writes too much leaves (about 10 MB).
    const { id } = await runWithLines(5_001, { filler: LOG_LINE_MAX_CHARS });
    const first = await detail(id);
    expect(first.body).toMatchObject({ _id: id, result: 'Success', logTotal: 5_001, logHasMore: true, logNext: 199 });
    expect(first.body.logStreams).toHaveLength(200);
    expect(first.body.logStreams[0]).toEqual({ level: 'warn', timestamp: NOW.toISOString(), text: lineText(0, LOG_LINE_MAX_CHARS) });
    expect(first.body.logStreams.at(-1)?.text).toBe(lineText(199, LOG_LINE_MAX_CHARS));
    // 200 lines of 2,000 characters and their fields: well under half a megabyte (was 9.9 MB).
    expect(first.bytes).toBeLessThan(450_000);

    const second = await detail(id, '?after=199');
    expect(second.body).toMatchObject({ logTotal: 5_001, logHasMore: true, logNext: 399 });
    expect(second.body.logStreams.map((line) => line.text.slice(0, 10))).toEqual(Array.from({ length: 200 }, (_, i) => lineText(200 + i).slice(0, 10)));

    // A bigger page on request (500 at most), and the last one says there is no more.
    const last = await detail(id, '?after=4799&limit=500');
    expect(last.body).toMatchObject({ logTotal: 5_001, logHasMore: false, logNext: 5_000 });
    expect(last.body.logStreams).toHaveLength(201);
    const beyond = await detail(id, '?after=5000');
    expect(beyond.body).toMatchObject({ logStreams: [], logHasMore: false, logNext: null });
  });

  it('walks the whole log with the cursor, every line once and in order', async () => {
    const { id } = await runWithLines(450);
    const seen: string[] = [];
    let after: number | null = null;
    for (let pages = 0; pages < 10; pages += 1) {
      const page: FlowLogDetail = (await detail(id, after === null ? '' : `?after=${after}`)).body;
      seen.push(...page.logStreams.map((line) => line.text));
      if (!page.logHasMore) break;
      after = page.logNext;
    }
    expect(seen).toEqual(Array.from({ length: 450 }, (_, i) => lineText(i)));
  });

  it('cuts a line longer than 2,000 characters when it sends it', async () => {
    const { id } = await runWithLines(3, { long: new Set([1]), longLength: 50_000 });
    const { body } = await detail(id);
    const long = body.logStreams[1]?.text ?? '';
    expect(long).toHaveLength(LOG_LINE_MAX_CHARS);
    expect(long.endsWith('…')).toBe(true);
    expect(long.startsWith('Línea 1 xxx')).toBe(true);
    expect(body.logStreams[2]?.text).toBe(lineText(2));
  });

  it('answers a run with no lines as an empty page', async () => {
    const { id } = await runWithLines(0);
    expect((await detail(id)).body).toMatchObject({ logStreams: [], logTotal: 0, logHasMore: false, logNext: null });
  });

  it('refuses a bad cursor or page size with the field path, in Spanish', async () => {
    const { id } = await runWithLines(3);
    for (const [query, path] of [['?after=-1', 'after'], ['?after=1.5', 'after'], ['?after=x', 'after'], ['?limit=0', 'limit'], ['?limit=501', 'limit']] as const) {
      const response = await ana.get(`/api/flowlog/${id}${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json(), query).toMatchObject({ code: 'VALIDATION', message: 'Revisa los datos enviados', issues: [{ path }] });
    }
  });

  it('never pages another group’s run', async () => {
    const { id } = await runWithLines(3);
    const luis = await registerUser(server.app, 'luis@otra.es', 'Luis');
    const response = await luis.get(`/api/flowlog/${id}?after=0`);
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('Línea');
  });
});

describe('the launcher’s state (GET execution/state/:token) stays bounded', () => {
  const state = async (token: string, since: number): Promise<ExecutionStateResponse> => {
    const response = await ana.get(`/api/browserflow/execution/state/${token}?since=${since}`);
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    return response.json();
  };

  it('sends at most 500 lines after `since`, so a poll from where it got to gathers the whole log in order', async () => {
    const { token } = await runWithLines(1_200, { result: null, long: new Set([3]) });
    const gathered: string[] = [];
    for (let polls = 0; polls < 10; polls += 1) {
      const answer = await state(token, gathered.length);
      expect(answer.state).toBe('running');
      expect(answer.consoleLog.length).toBeLessThanOrEqual(CONSOLE_LOG_MAX_LINES);
      if (answer.consoleLog.length === 0) break;
      gathered.push(...answer.consoleLog);
    }
    expect(gathered).toHaveLength(1_200);
    expect(gathered[0]).toBe(lineText(0));
    expect(gathered[3]).toHaveLength(LOG_LINE_MAX_CHARS);
    expect(gathered[1_199]).toBe(lineText(1_199));
  });

  it('gives a finished run’s Output its last 500 lines', async () => {
    const { token } = await runWithLines(1_200);
    const answer = await state(token, 1_000);
    expect(answer.consoleLog).toEqual(Array.from({ length: 200 }, (_, i) => lineText(1_000 + i)));
    expect(answer.output?.consoleLog).toHaveLength(CONSOLE_LOG_MAX_LINES);
    expect(answer.output?.consoleLog[0]).toBe(lineText(700));
    expect(answer.output?.consoleLog.at(-1)).toBe(lineText(1_199));
  });

  it('gives a short run’s Output its whole console, as before', async () => {
    const { token } = await runWithLines(3);
    const answer = await state(token, 0);
    expect(answer.consoleLog).toEqual([lineText(0), lineText(1), lineText(2)]);
    expect(answer.output?.consoleLog).toEqual([lineText(0), lineText(1), lineText(2)]);
  });
});
