import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORY_COUNT_CAP, type FlowlogResponse } from '#shared/api/flows.ts';
import { connectDatabase } from '../../db/connect.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { insertRun, memberOf } from './fixtures.ts';
import { outputsQuery, pageQuery, type FlowlogFilter } from './service.ts';

/**
 * SQLite only (it opens the test.sqlite file): the history's page of 12, read from the group's indexes
 * with its total from the counters. The plan, not the clock, is what a test can hold: `npm run bench`
 * times the same page over a million runs (issue 11 asks p99 ≤ 5 ms). 50,000 runs are enough for a
 * sort of the whole group or a count(*) to show in the plan and the totals.
 */
const RUNS = 50_000;

let server: TestServer;
let raw: SqliteDatabase.Database;
let ana: CookieJar;
let groupId: string;
/** Compiles the page query to the SQL the app sends (an in-memory database, never queried). */
const compiler = connectDatabase({ kind: 'sqlite', file: ':memory:' });

/** The runs in one statement; the indexes are dropped first and rebuilt after (sorted builds are ~3x faster). */
function insertManyRuns(db: SqliteDatabase.Database, group: string, user: string, count: number): void {
  const indexes = db.prepare("select sql from sqlite_master where type = 'index' and tbl_name = 'flow_runs' and sql is not null").all() as Array<{ sql: string }>;
  const names = db.prepare("select name from sqlite_master where type = 'index' and tbl_name = 'flow_runs' and sql is not null").all() as Array<{ name: string }>;
  for (const { name } of names) db.exec(`drop index ${name}`);
  db.prepare(`
    with recursive n(i) as (select 1 union all select i + 1 from n where i < ?)
    insert into flow_runs (id, group_id, user_id, flow_id, flow_name, execution_token, state, result, scheduled, usage_units, usage_ratio, cost, inputs, created_at, finished_at)
    select printf('%08x-0000-4000-8000-000000000000', i), ?, ?, 'validar-identificadores', 'Validar identificadores', 'token-' || i, 'finished',
      case i % 5 when 0 then 'Fail' when 1 then 'WrongInput' else 'Success' end, i % 3 = 0, i % 7, 1, i % 7, '{}',
      strftime('%Y-%m-%dT%H:%M:%fZ', '2020-01-01', '+' || i || ' minutes'), strftime('%Y-%m-%dT%H:%M:%fZ', '2020-01-01', '+' || i || ' minutes')
    from n`).run(count, group, user);
  db.prepare('insert into flow_run_counts (group_id, scheduled, runs) select group_id, scheduled, count(*) from flow_runs where group_id = ? group by scheduled on conflict (group_id, scheduled) do update set runs = excluded.runs').run(group);
  for (const { sql } of indexes) db.exec(sql);
}

beforeAll(async () => {
  server = await startTestServer();
  ana = await registerUser(server.app, 'ana@asesoria.es');
  await registerUser(server.app, 'luis@otra.es');
  const db = connectDatabase(server.database);
  ({ groupId } = await memberOf(db, 'ana@asesoria.es'));
  const other = await memberOf(db, 'luis@otra.es');
  // Another group's newest runs sit in the same index, right next to the page asked for.
  for (let i = 0; i < 20; i += 1) await insertRun(db, { ...other, flowId: 'validar-identificadores', createdAt: new Date(Date.UTC(2030, 0, 1, 0, i)).toISOString() });
  await db.destroy();
  raw = new SqliteDatabase(join(server.dir, 'test.sqlite'));
  // A throwaway test file: no fsync and a big page cache for the bulk insert.
  raw.pragma('synchronous = OFF');
  raw.pragma('cache_size = -200000');
  const anaId = (raw.prepare('select id from users where email = ?').get('ana@asesoria.es') as { id: string }).id;
  insertManyRuns(raw, groupId, anaId, RUNS);
  insertOutputs(raw, groupId, anaId);
}, 60_000);

/** Output files of kind 'output' that are not the newest page's (OTHER_OUTPUTS, spread over older runs), and two for each of the page's first two runs, the later one written first by name. */
const OTHER_OUTPUTS = 20_000;
function insertOutputs(db: SqliteDatabase.Database, group: string, user: string): void {
  const insert = db.prepare(`insert into stored_files (id, group_id, user_id, kind, run_id, name, size, content_type, storage_key, created_at)
    values (?, ?, ?, 'output', ?, ?, 1, 'text/plain', ?, ?)`);
  const runId = (i: number) => `${i.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`;
  db.transaction(() => {
    for (let i = 0; i < OTHER_OUTPUTS; i++) insert.run(`otro-${i}`, group, user, runId(1 + (i % (RUNS - 100))), `salida-${i}.txt`, `otro-${i}`, new Date(Date.UTC(2031, 0, 1) + i).toISOString());
    for (const run of [RUNS, RUNS - 1]) {
      insert.run(`b-${run}`, group, user, runId(run), 'b-primero.xlsx', `b-${run}`, '2032-01-01T00:00:00.000Z');
      insert.run(`a-${run}`, group, user, runId(run), 'a-segundo.xlsx', `a-${run}`, '2032-01-01T00:00:01.000Z');
    }
  })();
}

afterAll(async () => {
  raw.close();
  await compiler.destroy();
  await server.close();
});

function plan(filter: FlowlogFilter): string[] {
  const query = pageQuery(compiler, groupId, filter);
  return (raw.prepare(`explain query plan ${query.sql}`).all(...query.parameters) as Array<{ detail: string }>).map((row) => row.detail);
}

describe(`history of ${RUNS.toLocaleString('en')} runs`, () => {
  it('reads each page in order from an index that ends with the id tie-break, sorting nothing', () => {
    const base = { sortdir: 'desc', start: 0, limit: 12 } as const;
    const expected = [
      [{ ...base, sortby: 'createAt' }, 'SEARCH r USING INDEX flow_runs_group_created_id_idx (group_id=?)'],
      [{ ...base, sortby: 'createAt', scheduled: true }, 'SEARCH r USING INDEX flow_runs_group_scheduled_created_id_idx (group_id=? AND scheduled=?)'],
      [{ ...base, sortby: 'createAt', sortdir: 'asc', scheduled: false }, 'SEARCH r USING INDEX flow_runs_group_scheduled_created_id_idx (group_id=? AND scheduled=?)'],
      [{ ...base, sortby: 'cost' }, 'SEARCH r USING INDEX flow_runs_group_cost_created_id_idx (group_id=?)'],
      [{ ...base, sortby: 'result', sortdir: 'asc' }, 'SEARCH r USING INDEX flow_runs_group_result_created_id_idx (group_id=?)'],
      [{ ...base, sortby: 'browserFlow' }, 'SEARCH r USING INDEX flow_runs_group_flow_name_created_id_idx (group_id=?)'],
      // The history's filters (robot, Madrid day range) read from an index too (migration 0012 for the robot).
      [{ ...base, sortby: 'createAt', flow: 'validar-identificadores' }, 'SEARCH r USING INDEX flow_runs_group_flow_created_id_idx (group_id=? AND flow_id=?)'],
      [{ ...base, sortby: 'createAt', from: '2020-06-01', to: '2020-06-30' }, 'SEARCH r USING INDEX flow_runs_group_created_id_idx (group_id=? AND created_at>? AND created_at<?)'],
      [{ ...base, sortby: 'createAt', flow: 'validar-identificadores', from: '2020-06-01' }, 'SEARCH r USING INDEX flow_runs_group_flow_created_id_idx (group_id=? AND flow_id=? AND created_at>?)'],
      // A search matching one robot reads that robot's runs the same way.
      [{ ...base, sortby: 'createAt', q: 'validar', searchFlowIds: ['validar-identificadores'] }, 'SEARCH r USING INDEX flow_runs_group_flow_created_id_idx (group_id=? AND flow_id=?)'],
    ] as const satisfies ReadonlyArray<readonly [FlowlogFilter, string]>;
    for (const [filter, search] of expected) {
      const steps = plan(filter);
      expect(steps[0]).toBe(search);
      // Neither the whole group ('USE TEMP B-TREE FOR ORDER BY') nor the id tie-break within equal keys
      // ('... FOR RIGHT PART OF ORDER BY') is sorted: the page is the index's next 12 entries.
      expect(steps.filter((step) => step.includes('TEMP B-TREE'))).toEqual([]);
    }
  });

  it("reads the page's outputs by run from their index, not every output file of the firm's runs", async () => {
    const { items } = (await ana.get('/api/flowlog')).json() as FlowlogResponse;
    const compiled = outputsQuery(compiler, items.map((item) => ({ id: item._id }) as Parameters<typeof outputsQuery>[1][number]));
    if (!compiled) throw new Error('a page of runs has an outputs query');
    const steps = (raw.prepare(`explain query plan ${compiled.sql}`).all(...compiled.parameters) as Array<{ detail: string }>).map((row) => row.detail);
    // Migration 0026: before it, SQLite read the (kind, created_at) index, every output of every run, and sorted them.
    expect(steps[0]).toMatch(/^SEARCH stored_files USING (COVERING )?INDEX stored_files_run_kind_idx \(run_id=\? AND kind=\?\)$/);
    expect(steps.filter((step) => step.includes('TEMP B-TREE'))).toEqual([]);
    // In the order each robot wrote them, not by name.
    expect(items.slice(0, 3).map((item) => item.outputFileNames)).toEqual([['b-primero.xlsx', 'a-segundo.xlsx'], ['b-primero.xlsx', 'a-segundo.xlsx'], []]);
  });

  it('answers the newest page of 12 with the total from the counters', async () => {
    const first = await ana.get('/api/flowlog');
    expect(first.statusCode).toBe(200);
    const body = first.json() as FlowlogResponse;
    expect(body.total).toBe(RUNS);
    expect(body.items).toHaveLength(12);
    expect(body.items[0]?.createAt).toBe(new Date(Date.UTC(2020, 0, 1) + RUNS * 60_000).toISOString());
    const scheduled = (await ana.get('/api/flowlog?scheduled=true')).json() as FlowlogResponse;
    expect(scheduled.total).toBe(Math.floor(RUNS / 3));
  });

  it('counts a filtered view only up to HISTORY_COUNT_CAP, and says when there are more', async () => {
    const byRobot = (await ana.get('/api/flowlog?flow=validar-identificadores')).json() as FlowlogResponse;
    expect(byRobot).toMatchObject({ total: HISTORY_COUNT_CAP, totalCapped: true });
    expect(byRobot.items).toHaveLength(12);
    // The first Madrid day of 2020 holds 1,379 of these runs (one a minute from 00:01 UTC).
    expect((await ana.get('/api/flowlog?from=2020-01-01&to=2020-01-01')).json()).toMatchObject({ total: HISTORY_COUNT_CAP, totalCapped: true });
    const fewer = (await ana.get('/api/flowlog?from=2020-01-01&to=2020-01-01&scheduled=true')).json() as FlowlogResponse;
    expect(fewer.total).toBe(Math.floor(1379 / 3));
    expect(fewer.totalCapped).toBeUndefined();
    expect((await ana.get('/api/flowlog?q=ninguno')).json()).toMatchObject({ total: 0, items: [] });
  });
});
