/**
 * Flows figures for `npm run bench` (issue 11, performance):
 *  - one page of the run history (GET /api/flowlog: the 12 newest of 1,000,000 runs in SQLite, signed in)
 *    under load, beside a bare Fastify hello-world and GET /api/users/me measured in the same run.
 *    Goal: p99 ≤ 5 ms and at least 60 % of the hello-world's requests per second.
 *  - from launching a server flow (POST execution of validar-identificadores with a small workbook) to its
 *    first log line, as the launcher sees it (the 202's state, then long polls), median of LAUNCHES runs.
 * The server is the compiled bundle `npm start` runs, on its own SQLite file.
 */
import SqliteDatabase from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startProcess, stop, waitFor } from '../../e2e/processes.ts';
import { buildServerCopy } from '../build-server.ts';
import type { ExecutionStateResponse, FlowlogResponse, UploadedFile } from '#shared/api/flows.ts';
import { cpuMicrosOf, measureLatencyAlone, measureLoad, signInCookie, startHelloWorld, type LoadFigures } from './http-load.ts';
import { startBenchServer, type ServerCommand } from './server-start.ts';
import { goalVerdict, median, percentOf } from './stats.ts';

export const HISTORY_RUNS = 1_000_000;
/** One run in this many belongs to another firm: its rows sit in the same indexes as the demo's. */
const OTHER_GROUP_EVERY = 50;
const LOAD = { connections: 50, durationSeconds: 10 };
/** The history beside its floor: this many rounds of each, taken in turns, so the machine's other load hits both alike. */
const FLOOR_ROUNDS = 10;
const FLOOR_ROUND = { connections: 50, durationSeconds: 3 };
/** How long the server's CPU is watched with no request coming in: its timers' own work, which the floor does not have. */
const IDLE_WATCH_MS = 5_000;
const WARM_UP = { connections: 50, durationSeconds: 3 };

export const LAUNCHES = 20;
const WORKBOOK = new URL('../../resources/flows/validar-identificadores/fixtures/trabajadores.xlsx', import.meta.url);

const DEMO = { email: 'demo@autoasesor.es', password: 'Demo1234!' };
const OTHER = { name: 'Otra Asesoría', email: 'bench@otra-asesoria.es', password: 'Banco-Pruebas-42' };

/** A UUID-shaped id that grows with n, so a million inserts append to the primary key instead of scattering. */
function sequentialId(prefix: number, n: number): string {
  return `${prefix.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

interface Member {
  userId: string;
  groupId: string;
}

function memberOf(db: SqliteDatabase.Database, email: string): Member {
  const row = db.prepare('select id, group_id from users where email = ?').get(email) as { id: string; group_id: string } | undefined;
  if (!row) throw new Error(`No user ${email} in the bench database`);
  return { userId: row.id, groupId: row.group_id };
}

/**
 * A million finished runs straight into flow_runs with one prepared INSERT in one transaction, newest
 * a minute ago, one a minute before the other. The indexes on flow_runs are dropped first and built
 * again after (a sorted build is several times faster than a million scattered index inserts).
 * The per-group counters the history's total comes from (flow_run_counts, migration 0005) are raised
 * the way recordRunCreated does it, by the number of runs inserted for each group and kind.
 * Returns how many runs the demo group has now, counted the slow way, to check the API against.
 */
function seedRuns(file: string, count: number, demo: Member, other: Member): number {
  const db = new SqliteDatabase(file);
  try {
    // A throwaway bench file: no fsync per page while loading (the server reopens it with synchronous=FULL).
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -200000');
    const flows = db.prepare('select id, name, usage_ratio from flows order by id').all() as Array<{ id: string; name: string; usage_ratio: number }>;
    if (flows.length === 0) flows.push({ id: 'validar-identificadores', name: 'Validar identificadores', usage_ratio: 0.01 });
    const indexes = db.prepare("select name, sql from sqlite_master where type = 'index' and tbl_name = 'flow_runs' and sql is not null").all() as Array<{ name: string; sql: string }>;
    const insert = db.prepare(`
      insert into flow_runs (id, group_id, user_id, flow_id, flow_name, execution_token, state, result, launch_status, scheduled,
        successful_iterations, total_iterations, usage_units, usage_ratio, cost, inputs, created_at, started_at, finished_at)
      values (?, ?, ?, ?, ?, ?, 'finished', ?, ?, ?, ?, ?, ?, ?, ?, '{}', ?, ?, ?)`);
    const raiseCount = db.prepare(
      'insert into flow_run_counts (group_id, scheduled, runs) values (?, ?, ?) on conflict (group_id, scheduled) do update set runs = flow_run_counts.runs + excluded.runs',
    );
    const newest = Date.now() - 60_000;
    db.transaction(() => {
      for (const index of indexes) db.exec(`drop index ${index.name}`);
      const added = new Map<string, number>();
      for (let n = 0; n < count; n += 1) {
        const owner = n % OTHER_GROUP_EVERY === OTHER_GROUP_EVERY - 1 ? other : demo;
        const flow = flows[n % flows.length] as (typeof flows)[number];
        const result = n % 10 === 3 ? 'Fail' : n % 10 === 7 ? 'WrongInput' : 'Success';
        const scheduled = n % 4 === 0 ? 1 : 0;
        const rows = 20 + (n % 480);
        const units = result === 'Success' ? rows : 0;
        const at = new Date(newest - n * 60_000).toISOString();
        insert.run(
          sequentialId(1, n), owner.groupId, owner.userId, flow.id, flow.name, sequentialId(2, n), result, result === 'Success' ? 200 : result === 'Fail' ? 500 : 242,
          scheduled, result === 'Success' ? rows : 0, rows, units, flow.usage_ratio, units * flow.usage_ratio, at, at, at,
        );
        const key = `${owner.groupId} ${scheduled}`;
        added.set(key, (added.get(key) ?? 0) + 1);
      }
      for (const [key, runs] of added) {
        const [groupId, scheduled] = key.split(' ');
        raiseCount.run(groupId, Number(scheduled), runs);
      }
      for (const index of indexes) db.exec(index.sql);
    })();
    return (db.prepare('select count(*) as runs from flow_runs where group_id = ?').get(demo.groupId) as { runs: number }).runs;
  } finally {
    db.close();
  }
}

interface TargetFigures {
  /** One client asking again as soon as answered: the time a request takes, without queueing behind others. */
  alone: LoadFigures;
  /** LOAD.connections clients at once: how many requests per second the server gets through. */
  loaded: LoadFigures;
}

/** Warms the JIT and SQLite's page cache (a server that has been up a while), then measures alone and loaded. */
async function measureTarget(url: string, serverPid: number | undefined, headers: Record<string, string> = {}): Promise<TargetFigures> {
  await measureLoad(url, { ...WARM_UP, headers });
  const alone = await measureLatencyAlone(url, { durationSeconds: LOAD.durationSeconds, headers, serverPid });
  const loaded = await measureLoad(url, { ...LOAD, headers, serverPid });
  return { alone, loaded };
}

function figuresLine(label: string, figures: TargetFigures, ceiling?: TargetFigures): string {
  const { alone, loaded } = figures;
  const share = ceiling ? `  ${percentOf(loaded.requestsPerSecond, ceiling.loaded.requestsPerSecond).padStart(5)} of hello-world` : '';
  const failures = alone.failures + loaded.failures > 0 ? `  (${alone.failures + loaded.failures} failed!)` : '';
  const cpu = loaded.cpuMicrosPerRequest === null ? '' : `, ${Math.round(loaded.cpuMicrosPerRequest)} µs server CPU/req`;
  return (
    `${label.padEnd(38)} alone: p50 ${alone.p50Ms.toFixed(2)} ms, p99 ${alone.p99Ms.toFixed(2)} ms` +
    `   ${LOAD.connections} connections: ${Math.round(loaded.requestsPerSecond).toLocaleString('en-US').padStart(6)} req/s, p50 ${loaded.p50Ms.toFixed(0)} ms, p99 ${loaded.p99Ms.toFixed(0)} ms${cpu}${share}${failures}`
  );
}

/**
 * A bench database in dataDir: migrated and seeded by the server itself (demo account, catalogue), a
 * second firm signed up through the API, then HISTORY_RUNS runs. Returns the demo firm's run count.
 */
export async function prepareHistoryDatabase(server: ServerCommand, dataDir: string): Promise<number> {
  const setup = await startBenchServer(server, { dataDir });
  try {
    const response = await fetch(`${setup.baseUrl}/api/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(OTHER) });
    if (response.status !== 201) throw new Error(`Sign-up of the second firm failed: ${response.status} ${await response.text()}`);
  } finally {
    await setup.stop();
  }
  const file = join(dataDir, 'autoasesor.sqlite');
  const members = new SqliteDatabase(file, { readonly: true });
  const [demo, other] = [memberOf(members, DEMO.email), memberOf(members, OTHER.email)];
  members.close();
  return seedRuns(file, HISTORY_RUNS, demo, other);
}

/** The run history under load beside the hello-world and GET /api/users/me, printed as measured. */
export async function measureHistory(server: ServerCommand): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'autoasesor-bench-flows-'));
  try {
    const seedStarted = performance.now();
    const demoRuns = await prepareHistoryDatabase(server, dataDir);
    console.log(`Seeded ${HISTORY_RUNS.toLocaleString('en-US')} runs (${demoRuns.toLocaleString('en-US')} the demo firm's) in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);

    const api = await startBenchServer(server, { dataDir });
    const hello = await startHelloWorld();
    try {
      const cookie = await signInCookie(api.baseUrl, DEMO);
      const page = (await (await fetch(`${api.baseUrl}/api/flowlog`, { headers: { cookie } })).json()) as FlowlogResponse;
      if (page.total !== demoRuns || page.items.length !== 12) {
        throw new Error(`GET /api/flowlog answered total ${page.total} and ${page.items.length} items; the database holds ${demoRuns} runs of the demo firm`);
      }

      console.log(
        `Each target: ${WARM_UP.durationSeconds} s warm-up, then ${LOAD.durationSeconds} s with one connection (latency alone) and ${LOAD.durationSeconds} s with ${LOAD.connections} ` +
          '(throughput; latency there includes queueing); autocannon and the server share this machine\'s cores',
      );
      const ceiling = await measureTarget(hello.url, hello.pid);
      console.log(figuresLine('bare Fastify hello-world', ceiling));
      console.log(figuresLine('GET /api/users/me (signed in)', await measureTarget(`${api.baseUrl}/api/users/me`, api.pid, { cookie }), ceiling));
      const history = await measureTarget(`${api.baseUrl}/api/flowlog`, api.pid, { cookie });
      console.log(figuresLine(`GET /api/flowlog (12 of ${(page.total / 1e6).toFixed(2)} M runs)`, history, ceiling));
      const verdict = goalVerdict([
        { ok: history.alone.failures + history.loaded.failures === 0, what: 'every answer a 200' },
        { ok: history.alone.p99Ms <= 5, what: 'p99 ≤ 5 ms' },
        { ok: history.loaded.requestsPerSecond >= 0.6 * ceiling.loaded.requestsPerSecond, what: '≥ 60 % of hello-world req/s' },
      ]);
      console.log(`history goal (p99 ≤ 5 ms alone, ≥ 60 % of hello-world req/s under load): ${verdict}`);
      for (const line of await compareWithFloor(api, dataDir, cookie)) console.log(line);
    } finally {
      await hello.stop();
      await api.stop();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * The history's floor (history-floor.mjs): a bare Fastify running the page's four statements prepared
 * with better-sqlite3 on the same database file. Ready when it refuses a request without a session.
 */
async function startHistoryFloor(dataDir: string): Promise<{ url: string; pid: number | undefined; stop: () => Promise<void> }> {
  const port = await freePort();
  const floor = startProcess('node', [fileURLToPath(new URL('./history-floor.mjs', import.meta.url))], { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir });
  const url = `http://127.0.0.1:${port}/api/flowlog`;
  await waitFor('the history floor', async () => ((await fetch(url)).status === 401 ? true : undefined), 20_000, floor.output);
  return { url, pid: floor.child.pid, stop: () => stop(floor.child) };
}

/**
 * GET /api/flowlog on the server beside its floor (issue 42, point 4; goal ≥ 85 %): first both answers,
 * which must be the same bytes, then FLOOR_ROUNDS rounds of the server and the floor under the same load,
 * in turns. The share is the median of each round's req/s beside the floor's; the share of the means
 * and each side's server CPU per request are printed too.
 */
export async function compareWithFloor(api: { baseUrl: string; pid: number | undefined }, dataDir: string, cookie: string): Promise<string[]> {
  const floor = await startHistoryFloor(dataDir);
  try {
    const url = `${api.baseUrl}/api/flowlog`;
    const answer = async (target: string) => (await fetch(target, { headers: { cookie } })).text();
    const [ours, theirs] = [await answer(url), await answer(floor.url)];
    if (ours !== theirs) throw new Error(`The floor answers other bytes than the server:\n${ours.slice(0, 400)}\n${theirs.slice(0, 400)}`);
    await measureLoad(floor.url, { ...WARM_UP, headers: { cookie } });
    await measureLoad(url, { ...WARM_UP, headers: { cookie } });
    const idleBefore = api.pid === undefined ? null : cpuMicrosOf(api.pid);
    await new Promise((resolve) => setTimeout(resolve, IDLE_WATCH_MS));
    const idleAfter = api.pid === undefined ? null : cpuMicrosOf(api.pid);
    const idleShare = idleBefore === null || idleAfter === null ? '?' : `${((100 * (idleAfter - idleBefore)) / (IDLE_WATCH_MS * 1000)).toFixed(1)} %`;
    const rounds: Array<{ ours: LoadFigures; floor: LoadFigures }> = [];
    const load = (target: string, pid: number | undefined) => measureLoad(target, { ...FLOOR_ROUND, headers: { cookie }, serverPid: pid });
    for (let round = 0; round < FLOOR_ROUNDS; round++) {
      // Which goes first alternates: a machine slowing down or speeding up within a round favours neither side.
      if (round % 2 === 0) {
        const ours = await load(url, api.pid);
        rounds.push({ ours, floor: await load(floor.url, floor.pid) });
      } else {
        const theirs = await load(floor.url, floor.pid);
        rounds.push({ ours: await load(url, api.pid), floor: theirs });
      }
    }
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const side = (pick: (round: (typeof rounds)[number]) => LoadFigures) => {
      const figures = rounds.map(pick);
      const cpu = figures.map((one) => one.cpuMicrosPerRequest).filter((value): value is number => value !== null);
      return {
        requestsPerSecond: mean(figures.map((one) => one.requestsPerSecond)),
        cpu: cpu.length > 0 ? `${Math.round(mean(cpu))} µs server CPU/req` : 'server CPU ?',
        failures: figures.reduce((sum, one) => sum + one.failures, 0),
      };
    };
    const [server, bare] = [side((round) => round.ours), side((round) => round.floor)];
    const shareOfMeans = server.requestsPerSecond / bare.requestsPerSecond;
    const roundShares = rounds.map((round) => round.ours.requestsPerSecond / round.floor.requestsPerSecond);
    // The verdict is on the median of the rounds' own shares: each pair ran side by side, and one round
    // caught by a slow spell of this machine (51 % or 178 % were seen) moves the mean of all rounds by points.
    const share = median(roundShares) ?? 0;
    const perRound = roundShares.map((one) => `${Math.round(100 * one)} %`).join(', ');
    const line = (label: string, figures: typeof server) =>
      `${label.padEnd(46)} ${Math.round(figures.requestsPerSecond).toLocaleString('en-US').padStart(6)} req/s, ${figures.cpu}${figures.failures > 0 ? `  (${figures.failures} failed!)` : ''}`;
    return [
      `History beside its floor: ${FLOOR_ROUNDS} rounds of ${FLOOR_ROUND.durationSeconds} s each at ${FLOOR_ROUND.connections} connections, in turns; both answer the same ${Buffer.byteLength(ours)} bytes`,
      line('GET /api/flowlog (the server)', server),
      line('floor (bare Fastify, 4 prepared better-sqlite3)', bare),
      `the server's own CPU with no request coming in (its timers): ${idleShare} of a core over ${IDLE_WATCH_MS / 1000} s`,
      `server / floor: ${(100 * share).toFixed(1)} %, the median of the rounds (rounds: ${perRound}; of the means: ${(100 * shareOfMeans).toFixed(1)} %) · goal ≥ 85 %: ${
        goalVerdict([{ ok: server.failures + bare.failures === 0, what: 'every answer a 200' }, { ok: share >= 0.85, what: 'below 85 %' }])
      }`,
    ];
  } finally {
    await floor.stop();
  }
}

interface LaunchTimes {
  firstLineMs: number;
  finishedMs: number;
  status: number;
}

/**
 * One launch as the launcher does it, the workbook already uploaded: POST execution, then the state
 * with long polls (wait) until the first log line, then until the output. Timed from just before the POST.
 */
async function launchOnce(baseUrl: string, cookie: string, upload: { id: string; name: string }, key: string): Promise<LaunchTimes> {
  const headers = { cookie, 'content-type': 'application/json' };
  const started = performance.now();
  const launched = await fetch(`${baseUrl}/api/browserflow/execution/validar-identificadores`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ inputs: { workbook: [{ uploadId: upload.id, name: upload.name }] }, idempotencyKey: key }),
  });
  if (launched.status !== 202) throw new Error(`Launch answered ${launched.status}: ${await launched.text()}`);
  let state = (await launched.json()) as ExecutionStateResponse;
  let firstLineMs = state.consoleLog.length > 0 ? performance.now() - started : null;
  while (!state.output) {
    const lines = firstLineMs === null ? 0 : state.consoleLog.length;
    const response = await fetch(`${baseUrl}/api/browserflow/execution/state/${state.executionToken}?wait=25&since=${lines}`, { headers: { cookie } });
    if (!response.ok) throw new Error(`State answered ${response.status}: ${await response.text()}`);
    const next = (await response.json()) as ExecutionStateResponse;
    // With `since`, consoleLog holds only the lines after it.
    state = { ...next, consoleLog: [...state.consoleLog, ...next.consoleLog] };
    if (firstLineMs === null && state.consoleLog.length > 0) firstLineMs = performance.now() - started;
  }
  const finishedMs = performance.now() - started;
  return { firstLineMs: firstLineMs ?? finishedMs, finishedMs, status: state.output.status };
}

/** LAUNCHES launches of validar-identificadores, one after the other, on a fresh server and account. */
export async function measureLaunches(server: ServerCommand): Promise<string[]> {
  const api = await startBenchServer(server);
  try {
    const account = { name: 'Banco de Pruebas', email: 'lanzamientos@asesoria-bench.es', password: 'Banco-Pruebas-42' };
    const registered = await fetch(`${api.baseUrl}/api/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(account) });
    if (registered.status !== 201) throw new Error(`Sign-up failed: ${registered.status} ${await registered.text()}`);
    const cookie = registered.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');

    const form = new FormData();
    form.append('file', new Blob([await readFile(WORKBOOK)]), 'trabajadores.xlsx');
    const uploaded = await fetch(`${api.baseUrl}/api/storage/uploads`, { method: 'POST', headers: { cookie }, body: form });
    if (uploaded.status !== 201) throw new Error(`Upload failed: ${uploaded.status} ${await uploaded.text()}`);
    const [upload] = ((await uploaded.json()) as { items: UploadedFile[] }).items;
    if (!upload) throw new Error('Upload answered no file');

    await launchOnce(api.baseUrl, cookie, upload, 'bench-warm-up'); // the first run also starts the worker pool
    const launches: LaunchTimes[] = [];
    for (let i = 0; i < LAUNCHES; i += 1) launches.push(await launchOnce(api.baseUrl, cookie, upload, `bench-launch-${i}`));
    const statuses = [...new Set(launches.map((launch) => launch.status))].join(', ');
    const ms = (values: number[]) => `median ${median(values)?.toFixed(0)} ms (best ${Math.min(...values).toFixed(0)}, worst ${Math.max(...values).toFixed(0)})`;
    return [
      `launch -> first log line   ${ms(launches.map((launch) => launch.firstLineMs))}`,
      `launch -> output           ${ms(launches.map((launch) => launch.finishedMs))}   (${LAUNCHES} runs one after another, status ${statuses})`,
    ];
  } finally {
    await api.stop();
  }
}

/** Both flows figures, printed as they come (seeding the million runs takes a while). */
export async function runFlowsBench(server: ServerCommand): Promise<void> {
  await measureHistory(server);
  for (const line of await measureLaunches(server)) console.log(line);
}

/**
 * Only the history beside its floor. With `keptDataDir` (a folder a previous call seeded), the million
 * runs are seeded there once and kept, so a change can be measured again in a minute.
 */
export async function measureHistoryFloor(server: ServerCommand, keptDataDir?: string): Promise<void> {
  const dataDir = keptDataDir ?? (await mkdtemp(join(tmpdir(), 'autoasesor-bench-flows-')));
  try {
    if (!existsSync(join(dataDir, 'autoasesor.sqlite'))) await prepareHistoryDatabase(server, dataDir);
    const api = await startBenchServer(server, { dataDir });
    try {
      for (const line of await compareWithFloor(api, dataDir, await signInCookie(api.baseUrl, DEMO))) console.log(line);
    } finally {
      await api.stop();
    }
  } finally {
    if (keptDataDir === undefined) await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * `npx tsx scripts/bench/flows.ts [history|launches|floor [data folder]]`: these figures alone, without
 * the rest of `npm run bench`; `floor` measures only the history beside its floor (in the folder given,
 * seeded at its first use and kept).
 */
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const part = process.argv[2];
  const serverBuild = await buildServerCopy();
  try {
    const compiled: ServerCommand = { kind: 'compiled', entry: serverBuild.entry };
    if (part === 'floor') await measureHistoryFloor(compiled, process.argv[3]);
    else if (part !== 'launches') await measureHistory(compiled);
    if (part !== 'history' && part !== 'floor') for (const line of await measureLaunches(compiled)) console.log(line);
  } finally {
    await rm(serverBuild.dir, { recursive: true, force: true });
  }
}
