/**
 * npm run scaleout — two server processes on one PostgreSQL database under 500 firms, and each killed
 * with SIGKILL midway (issue 42).
 *
 * Two compiled servers (`npm start`'s bundle), A and B, on one fresh database and one STORAGE_DIR,
 * behind a round-robin proxy that skips a process that refuses connections (scaleout/proxy.ts).
 * FIRMS firms sign up through the API and each uploads a small payroll; SCHEDULES of them schedule
 * Validar identificadores within the window. Then autocannon drives the mix for DURATION_S seconds
 * (scaleout/load.ts): history pages, DEHÚ lists, /api/health, sign-ins, uploads, FIE imports and
 * LAUNCHES robot launches, half of them from a few heavy firms. At 40 % of the window A is killed
 * with SIGKILL and started again; at 70 %, B. Once every run has closed it prints and checks:
 *  - no run lost: every launch answered 202 has its run, and every run closed;
 *  - none charged twice, and ledger = used slans for every firm;
 *  - every run cut short by a kill closed (299, not charged) within RUN_LEASE_MS + 10 s of the kill;
 *  - each schedule fired once (again only after a run interrupted by a kill: 299, not charged, retried by design);
 *  - how long a run waited behind another firm's queue (goal ≤ 2 s; scaleout/checks.ts says how);
 *  - p50/p99 of each kind of request, and both processes' peak RSS.
 * Exit 1 when a run was lost, charged twice, left open or closed late, or a schedule fired twice.
 * Needs PostgreSQL: TEST_DATABASE_URL (a role that may create databases), as `.ci/run` sets it.
 *
 *   npm run scaleout                                   # FIRMS=500 DURATION_S=600 LAUNCHES=2000
 *   FIRMS=50 DURATION_S=60 LAUNCHES=200 npm run scaleout   # a quick look
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import * as XLSX from 'xlsx';
import { sampleFieChunks } from '#shared/fie/sample.ts';
import { startCompiledServer, stop } from '../e2e/processes.ts';
import { buildServerCopy } from './build-server.ts';
import { percentile } from './bench/stats.ts';
import { LEDGER_AGAINST_USAGE_SQL } from './ledger-sql.ts';
import { closedAfterKill, schedulesFiredTwice, waitsBehindOtherFirms, type RunTimes } from './scaleout/checks.ts';
import { driveLoad, SCALEOUT_PASSWORD, type SeededFirm } from './scaleout/load.ts';
import { startFailoverProxy } from './scaleout/proxy.ts';

const FIRMS = Number(process.env.FIRMS ?? 500);
const DURATION_S = Number(process.env.DURATION_S ?? 600);
const LAUNCHES = Number(process.env.LAUNCHES ?? 2_000);
const SCHEDULES = Number(process.env.SCHEDULES ?? Math.round(FIRMS / 5));
const HEAVY_FIRMS = 10;
/** KILLS=0 leaves both processes alive (a look at the load alone). */
const KILLS = process.env.KILLS !== '0';
const LEASE_MS = 15_000;
const CLOSE_WITHIN_MS = LEASE_MS + 10_000;
const FAIR_WAIT_GOAL_MS = 2_000;
const ROWS = 40;
const RUN_CONCURRENCY = 2;
/** The firms' own runs' history, the schedule's and the ledger's rows: everything but the demo account's. */
const OUR_GROUPS = "select group_id from users where email like '%@escala.es'";

const adminUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
if (!adminUrl) {
  console.error('scaleout necesita PostgreSQL: define TEST_DATABASE_URL (un rol que pueda crear bases de datos).');
  process.exit(1);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function payroll(): Buffer {
  const rows: (string | number)[][] = [['DNI', 'Nombre', 'IBAN']];
  for (let row = 0; row < ROWS; row += 1) rows.push([`${String(20_000_000 + row)}${'TRWAGMYFPDXBNJZSQVHLCKE'[(20_000_000 + row) % 23]}`, `Trabajador ${row}`, 'ES9121000418450200051332']);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Nómina');
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

/** Runs `work` over `items`, `parallel` at a time. */
async function inPool<T, R>(items: readonly T[], parallel: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index] as T, index);
      }
    }),
  );
  return results;
}

async function seedFirm(baseUrl: string, index: number, workbook: Buffer): Promise<SeededFirm> {
  const email = `despacho-${index}@escala.es`;
  const address = `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;
  const headers = { origin: baseUrl, 'x-scaleout-client': address };
  const registered = await fetch(`${baseUrl}/api/users`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Despacho ${index}`, email, password: SCALEOUT_PASSWORD }),
  });
  if (registered.status !== 201) throw new Error(`registro de ${email}: ${registered.status} ${await registered.text()}`);
  const cookie = registered.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(workbook)]), 'nomina.xlsx');
  const uploaded = await fetch(`${baseUrl}/api/storage/uploads`, { method: 'POST', headers: { ...headers, cookie }, body: form });
  if (uploaded.status !== 201) throw new Error(`subida de ${email}: ${uploaded.status} ${await uploaded.text()}`);
  const [file] = ((await uploaded.json()) as { items: { id: string }[] }).items;
  return { email, cookie, uploadId: file?.id ?? '', address };
}

/** Schedules a one-off run of Validar identificadores; its id and time (the runner deletes a one-off schedule once it fires). */
async function schedule(baseUrl: string, firm: SeededFirm, at: Date): Promise<{ id: string; at: number }> {
  const response = await fetch(`${baseUrl}/api/browserflow/schedule/validar-identificadores`, {
    method: 'POST',
    headers: { cookie: firm.cookie, origin: baseUrl, 'x-scaleout-client': firm.address, 'content-type': 'application/json' },
    body: JSON.stringify({ scheduledDate: at.toISOString(), flowInputs: { workbook: [{ uploadId: firm.uploadId, name: 'nomina.xlsx' }] } }),
  });
  if (response.status !== 201) throw new Error(`programación de ${firm.email}: ${response.status} ${await response.text()}`);
  return { id: ((await response.json()) as { _id: string })._id, at: at.getTime() };
}

/** Resident set of a process in bytes (Linux /proc), or null once it has gone. */
function rssOf(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((text) => text.startsWith('VmRSS:'));
    return line ? Number(line.replace(/\D+/g, '')) * 1024 : null;
  } catch {
    return null;
  }
}

const started = Date.now();
const database = `autoasesor_scaleout_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`create database ${database}`);
const url = new URL(adminUrl);
url.pathname = `/${database}`;
const dataDir = await mkdtemp(join(tmpdir(), 'autoasesor-scaleout-'));
const build = await buildServerCopy();
const failures: string[] = [];
const db = new pg.Client({ connectionString: url.href });

type Server = Awaited<ReturnType<typeof startCompiledServer>>;
const servers: Record<'A' | 'B', Server | null> = { A: null, B: null };
const peakRss: Record<'A' | 'B', number> = { A: 0, B: 0 };
const kills: number[] = [];
const proxy = await startFailoverProxy(() =>
  (['A', 'B'] as const).flatMap((name) => {
    const server = servers[name];
    return server ? [{ url: new URL(server.baseUrl) }] : [];
  }),
);
const env = {
  DATABASE_URL: url.href,
  STORAGE_DIR: join(dataDir, 'storage'),
  PUBLIC_URL: proxy.baseUrl,
  TRUST_PROXY: '127.0.0.1',
  SECRETS_KEY: randomBytes(32).toString('base64'),
  RUN_LEASE_MS: String(LEASE_MS),
  RUN_CONCURRENCY: String(RUN_CONCURRENCY),
  // 500 firms sign up from the proxy's made-up offices: a few per address, far below any limit.
  SIGNUPS_PER_IP_HOUR: '50',
  LOG_LEVEL: 'warn',
};
const start = async (name: 'A' | 'B') => {
  servers[name] = await startCompiledServer(build.entry, { dataDir: join(dataDir, name), env, logFile: join(dataDir, `${name}.log`) });
};
const rssTimer = setInterval(() => {
  for (const name of ['A', 'B'] as const) peakRss[name] = Math.max(peakRss[name], rssOf(servers[name]?.child.pid) ?? 0);
}, 500);

let finished = false;
async function killAndRestart(name: 'A' | 'B'): Promise<void> {
  const server = servers[name];
  if (!server || finished) return;
  const running = await db.query<{ n: string }>("select count(*) as n from flow_runs where state = 'running'");
  server.child.kill('SIGKILL');
  await new Promise((resolve) => server.child.once('exit', resolve));
  kills.push(Date.now());
  servers[name] = null;
  console.log(`${seconds(Date.now() - started)}: kill -9 ${name} (${running.rows[0]?.n} runs running on A and B)`);
  const restart = Date.now();
  await start(name);
  console.log(`${seconds(Date.now() - started)}: ${name} answers again, ${seconds(Date.now() - restart)} after its restart`);
}

try {
  await start('A'); // migrates, installs pg-boss
  await start('B');
  await db.connect();
  const workbook = payroll();
  const fie = Buffer.from([...sampleFieChunks(50)].join(''), 'latin1');

  console.log(`== Seeding ${FIRMS} firms through the API (sign-up and an upload each)`);
  const seedStart = Date.now();
  const firms = await inPool(Array.from({ length: FIRMS }, (_, index) => index), 6, (index) => seedFirm(proxy.baseUrl, index, workbook));
  console.log(`${FIRMS} firms in ${seconds(Date.now() - seedStart)}`);
  // Due within the window (a few seconds after it opens, to its last fifth), one per scheduling firm.
  const window = { from: Date.now() + 30_000, to: Date.now() + 30_000 + DURATION_S * 800 };
  const scheduling = firms.slice(HEAVY_FIRMS, HEAVY_FIRMS + SCHEDULES);
  const schedules = await inPool(scheduling, 4, (firm, index) => schedule(proxy.baseUrl, firm, new Date(window.from + ((window.to - window.from) * index) / Math.max(1, scheduling.length))));
  console.log(`${scheduling.length} schedules due between ${new Date(window.from).toISOString()} and ${new Date(window.to).toISOString()}`);

  console.log(`== ${DURATION_S} s of load through the proxy: ${LAUNCHES} launches (half from ${HEAVY_FIRMS} firms), history pages, DEHÚ lists, sign-ins, uploads, FIE imports`);
  const loadStart = Date.now();
  const killing = (async () => {
    if (!KILLS) return;
    await sleep(DURATION_S * 400);
    await killAndRestart('A');
    await sleep(Math.max(0, loadStart + DURATION_S * 700 - Date.now()));
    await killAndRestart('B');
  })();
  const load = await driveLoad({ baseUrl: proxy.baseUrl, firms, heavyFirms: HEAVY_FIRMS, durationSeconds: DURATION_S, launches: LAUNCHES, workbook, fie }, (line) => console.log(`${seconds(Date.now() - started)}: ${line}`));
  await killing;
  console.log(`load done in ${seconds(Date.now() - loadStart)}`);

  console.log('== Waiting for every run to close');
  const deadline = Date.now() + 30 * 60_000;
  for (let report = 0; ; report += 1) {
    const { rows } = await db.query<{ n: string }>(`select count(*) as n from flow_runs where state != 'finished' and group_id in (${OUR_GROUPS})`);
    const open = Number(rows[0]?.n);
    if (open === 0) break;
    if (Date.now() > deadline) {
      failures.push(`${open} runs still open 30 minutes after the load`);
      break;
    }
    if (report % 30 === 0) console.log(`${seconds(Date.now() - started)}: ${open} runs open`);
    await sleep(1_000);
  }
  const drained = Date.now();

  console.log('== Requests (through the proxy, while the processes were killed and restarted)');
  for (const kind of load.kinds) {
    const refused = Object.entries(kind.refused).map(([status, count]) => `${count}× ${status}`).join(', ');
    console.log(`${kind.kind.padEnd(14)} ${String(kind.requests).padStart(6)} requests  p50 ${kind.p50Ms.toFixed(0).padStart(5)} ms  p99 ${kind.p99Ms.toFixed(0).padStart(6)} ms  max ${kind.maxMs.toFixed(0).padStart(6)} ms${refused ? `  refused: ${refused}` : ''}${kind.errors ? `  errors/timeouts: ${kind.errors}` : ''}`);
  }
  console.log(`proxy: ${proxy.retried()} requests sent on to the other process, ${proxy.failed()} answered 502`);

  const { rows: runs } = await db.query<{ id: string; group_id: string; queue_rank: string | null; created_at: Date; started_at: Date | null; finished_at: Date | null; state: string; launch_status: number | null; message: string | null; scheduled: number; schedule_id: string | null; charges: string }>(
    `select r.id, r.group_id, r.queue_rank, r.created_at, r.started_at, r.finished_at, r.state, r.launch_status, r.message, r.scheduled, r.schedule_id,
            (select count(*) from credit_ledger l where l.run_id = r.id) as charges
       from flow_runs r where r.group_id in (${OUR_GROUPS})`,
  );
  const time = (value: Date | string | null) => (value === null ? null : new Date(value).getTime());
  const byId = new Map(runs.map((run) => [run.id, run]));
  const missing = load.acceptedRuns.filter((id) => !byId.has(id));
  const open = runs.filter((run) => run.state !== 'finished');
  const twice = runs.filter((run) => Number(run.charges) > 1);
  const succeededUncharged = runs.filter((run) => run.launch_status === 200 && Number(run.charges) !== 1);
  const statuses = new Map<string, number>();
  for (const run of runs) statuses.set(String(run.launch_status), (statuses.get(String(run.launch_status)) ?? 0) + 1);
  console.log('== Runs');
  console.log(`${load.acceptedRuns.length} launches accepted (202), ${runs.length} runs stored (with the schedules' and launches whose answer was lost), closed by ${seconds(drained - loadStart)} after the load began`);
  console.log(`by launcher status: ${[...statuses].map(([status, count]) => `${status} ${count}`).join(' · ')}`);
  console.log(`lost (accepted, not stored): ${missing.length} · left open: ${open.length} · charged twice: ${twice.length} · succeeded without its one charge: ${succeededUncharged.length}`);
  if (missing.length > 0) failures.push(`${missing.length} accepted runs were never stored (first: ${missing[0]})`);
  if (open.length > 0) failures.push(`${open.length} runs never closed`);
  if (twice.length > 0) failures.push(`${twice.length} runs charged more than once (first: ${twice[0]?.id})`);
  if (succeededUncharged.length > 0) failures.push(`${succeededUncharged.length} successful runs without exactly one charge`);

  const { rows: usage } = await db.query<{ groupId: string; usedSlans: number; ledger: number }>(`select * from (${LEDGER_AGAINST_USAGE_SQL}) books where "groupId" in (${OUR_GROUPS})`);
  const unbalanced = usage.filter((firm) => Math.abs(Number(firm.usedSlans) - Number(firm.ledger)) > 1e-6);
  console.log(`ledger = used slans: ${usage.length - unbalanced.length} of ${usage.length} firms`);
  if (unbalanced.length > 0) failures.push(`${unbalanced.length} firms whose used slans differ from their ledger (first: ${JSON.stringify(unbalanced[0])})`);

  const interrupted = runs.filter((run) => run.launch_status === 299).map((run) => ({ id: run.id, finishedAt: time(run.finished_at) ?? 0 }));
  const closings = closedAfterKill(interrupted, kills);
  const late = closings.filter((closing) => closing.afterMs === null || closing.afterMs > CLOSE_WITHIN_MS);
  const slowest = Math.max(0, ...closings.map((closing) => closing.afterMs ?? Number.POSITIVE_INFINITY));
  console.log(`interrupted by the kills (299, not charged): ${interrupted.length}, closed at most ${seconds(slowest)} after their process died (goal ≤ ${seconds(CLOSE_WITHIN_MS)}: RUN_LEASE_MS + 10 s)`);
  if (late.length > 0) failures.push(`${late.length} interrupted runs closed later than RUN_LEASE_MS + 10 s after the kill (or with no kill before them)`);
  const chargedInterrupted = runs.filter((run) => run.launch_status === 299 && Number(run.charges) > 0);
  if (chargedInterrupted.length > 0) failures.push(`${chargedInterrupted.length} interrupted runs were charged`);

  const firedBySchedule = new Map<string, typeof runs>();
  for (const run of runs) if (run.schedule_id) firedBySchedule.set(run.schedule_id, [...(firedBySchedule.get(run.schedule_id) ?? []), run]);
  const firedTwice = schedulesFiredTwice(runs.map((run) => ({ id: run.id, scheduleId: run.schedule_id, launchStatus: run.launch_status })));
  const retried = [...firedBySchedule.values()].filter((fired) => fired.length > 1).length - firedTwice.length;
  const neverFired = schedules.filter((row) => !firedBySchedule.has(row.id));
  const lateness = schedules.flatMap((row) => {
    const fired = firedBySchedule.get(row.id)?.[0];
    return fired ? [(time(fired.created_at) ?? 0) - row.at] : [];
  });
  console.log(
    `schedules: ${schedules.length}, fired ${schedules.length - neverFired.length}, twice ${firedTwice.length}, again after a run interrupted by a kill ${retried}; launched after their time p50 ${seconds(percentile(lateness, 50) ?? 0)}, max ${seconds(Math.max(0, ...lateness))}`,
  );
  if (firedTwice.length > 0) failures.push(`${firedTwice.length} schedules fired more than once (first: ${JSON.stringify(firedTwice[0])})`);
  if (neverFired.length > 0) failures.push(`${neverFired.length} schedules never fired (first due ${new Date(neverFired[0]?.at ?? 0).toISOString()})`);

  const times: RunTimes[] = runs.map((run) => ({ id: run.id, groupId: run.group_id, rank: Number(run.queue_rank ?? 0), createdAt: time(run.created_at) ?? 0, startedAt: time(run.started_at), finishedAt: time(run.finished_at) }));
  const unfair = waitsBehindOtherFirms(times, RUN_CONCURRENCY);
  const overGoal = unfair.filter((wait) => wait.waitedMs > FAIR_WAIT_GOAL_MS);
  const heavyGroups = new Set((await db.query<{ group_id: string }>(`select group_id from users where email in (${firms.slice(0, HEAVY_FIRMS).map((firm) => `'${firm.email}'`).join(', ')})`)).rows.map((row) => row.group_id));
  const queueWaits = (heavy: boolean) => times.filter((run) => run.startedAt !== null && heavyGroups.has(run.groupId) === heavy).map((run) => (run.startedAt as number) - run.createdAt);
  const describeWaits = (waits: number[]) => `p50 ${seconds(percentile(waits, 50) ?? 0)}, p99 ${seconds(percentile(waits, 99) ?? 0)}, max ${seconds(Math.max(0, ...waits))}`;
  console.log('== Fairness');
  console.log(`queue wait (launch -> start), the ${HEAVY_FIRMS} heavy firms: ${describeWaits(queueWaits(true))}; the others: ${describeWaits(queueWaits(false))}`);
  console.log(
    `waited behind another firm's queue: ${unfair.length} runs, longest ${seconds(unfair[0]?.waitedMs ?? 0)}, ${overGoal.length} over ${seconds(FAIR_WAIT_GOAL_MS)} · goal ≤ ${seconds(FAIR_WAIT_GOAL_MS)}: ${overGoal.length === 0 ? 'met' : 'NOT met'}`,
  );

  console.log('== Server processes');
  console.log(`peak RSS (server process, its robots' child processes apart): A ${(peakRss.A / 2 ** 20).toFixed(0)} MiB, B ${(peakRss.B / 2 ** 20).toFixed(0)} MiB`);
  console.log(`${seconds(Date.now() - started)} in all`);
} catch (error) {
  failures.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
} finally {
  finished = true;
  clearInterval(rssTimer);
  await db.end().catch(() => undefined);
  for (const server of Object.values(servers)) if (server) await stop(server.child);
  await proxy.close();
  await admin.query(`drop database if exists ${database} with (force)`);
  await admin.end();
  if (failures.length > 0) console.error(`Server logs kept in ${dataDir} (A.log, B.log)`);
  else await rm(dataDir, { recursive: true, force: true });
  await rm(build.dir, { recursive: true, force: true });
}
if (failures.length > 0) {
  console.error(`FAILED (${failures.length}):\n${failures.map((failure) => `  - ${failure}`).join('\n')}`);
  process.exitCode = 1;
} else {
  console.log('No run lost, none charged twice, every firm\'s books balance.');
}
