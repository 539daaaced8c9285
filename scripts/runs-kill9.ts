/**
 * npm run runs:kill9 — two server processes share the runs on PostgreSQL, and one of them dies with
 * SIGKILL while it executes runs (issue 18). No run is lost and none is charged twice.
 *
 * Two compiled servers (`npm start`'s bundle) on one fresh PostgreSQL database and one storage folder,
 * RUN_LEASE_MS = 2 s. Two firms sign up and each uploads a workbook; RUNS launches of Validar
 * identificadores are sent to either server, alternately. KILLS times, once server A holds running
 * runs, it is killed with SIGKILL and started again. Then the script waits until every run has
 * finished and checks:
 *  - every launched run finished (none left queued or running);
 *  - a run cut short by the kill closed as 299 'interrumpido' and was charged nothing;
 *  - every other run succeeded and has exactly one ledger line; no run has two;
 *  - each firm's used slans equal the sum of its ledger lines.
 * It prints the figures and exits 1 naming what failed. Needs PostgreSQL: TEST_DATABASE_URL (a role
 * that may create databases), as `.ci/run` sets it.
 *
 *   npm run runs:kill9            # RUNS=24 KILLS=3 by default
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import * as XLSX from 'xlsx';
import { startCompiledServer, stop } from '../e2e/processes.ts';
import { buildServerCopy } from './build-server.ts';

const RUNS = Number(process.env.RUNS ?? 24);
const KILLS = Number(process.env.KILLS ?? 3);
const ROWS = 15_000;
const FLOW = 'validar-identificadores';

const adminUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
if (!adminUrl) {
  console.error('runs:kill9 necesita PostgreSQL: define TEST_DATABASE_URL (un rol que pueda crear bases de datos).');
  process.exit(1);
}

interface Firm {
  email: string;
  cookie: string;
  uploadId: string;
}

/** The two firms of this script (the compiled server also seeds a demo account with a history of its own). */
const OUR_GROUPS = "select group_id from users where email in ('ana@kill9.es', 'luis@kill9.es')";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function payroll(): Buffer {
  const rows: (string | number)[][] = [['DNI', 'Nombre', 'IBAN']];
  for (let row = 0; row < ROWS; row += 1) rows.push([`${String(10_000_000 + row).padStart(8, '0')}${'TRWAGMYFPDXBNJZSQVHLCKE'[(10_000_000 + row) % 23]}`, `Trabajador ${row}`, 'ES9121000418450200051332']);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Nómina');
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

async function signUp(baseUrl: string, email: string, workbook: Buffer): Promise<Firm> {
  const registered = await fetch(`${baseUrl}/api/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ name: 'Ana Pérez', email, password: 'Secreta-Nube7' }),
  });
  if (registered.status !== 201) throw new Error(`registro de ${email}: ${registered.status} ${await registered.text()}`);
  const cookie = registered.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(workbook)]), 'nomina.xlsx');
  const uploaded = await fetch(`${baseUrl}/api/storage/uploads`, { method: 'POST', headers: { cookie, origin: baseUrl }, body: form });
  if (uploaded.status !== 201) throw new Error(`subida de ${email}: ${uploaded.status} ${await uploaded.text()}`);
  const [file] = ((await uploaded.json()) as { items: { id: string }[] }).items;
  return { email, cookie, uploadId: file?.id ?? '' };
}

async function launch(baseUrl: string, firm: Firm): Promise<void> {
  const response = await fetch(`${baseUrl}/api/browserflow/execution/${FLOW}`, {
    method: 'POST',
    headers: { cookie: firm.cookie, origin: baseUrl, 'content-type': 'application/json' },
    body: JSON.stringify({ inputs: { workbook: [{ uploadId: firm.uploadId, name: 'nomina.xlsx' }] }, idempotencyKey: randomUUID() }),
  });
  if (response.status !== 202) throw new Error(`lanzamiento de ${firm.email}: ${response.status} ${await response.text()}`);
}

const started = Date.now();
const database = `autoasesor_kill9_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`create database ${database}`);
const url = new URL(adminUrl);
url.pathname = `/${database}`;
const dataDir = await mkdtemp(join(tmpdir(), 'autoasesor-runs-kill9-'));
const build = await buildServerCopy();
const env = { DATABASE_URL: url.href, STORAGE_DIR: join(dataDir, 'storage'), RUN_LEASE_MS: '2000', RUN_CONCURRENCY: '2', LOG_LEVEL: 'warn' };
const failures: string[] = [];
let serverA = await startCompiledServer(build.entry, { dataDir: join(dataDir, 'a'), env });
const serverB = await startCompiledServer(build.entry, { dataDir: join(dataDir, 'b'), env });
const db = new pg.Client({ connectionString: url.href });
await db.connect();
try {
  const workbook = payroll();
  const firms = [await signUp(serverA.baseUrl, 'ana@kill9.es', workbook), await signUp(serverB.baseUrl, 'luis@kill9.es', workbook)];
  // A trial's 500 slans cover three of these runs: the firms are on the Profesional plan (10,000).
  await db.query(`update subscriptions set plan_id = (select id from plans where ref = 'pro'), status = 'active' where group_id in (${OUR_GROUPS})`);
  for (let index = 0; index < RUNS; index += 1) await launch(index % 2 === 0 ? serverA.baseUrl : serverB.baseUrl, firms[index % 2] as Firm);
  console.log(`${RUNS} ejecuciones lanzadas (${ROWS.toLocaleString('es-ES')} filas cada una) en dos servidores`);

  for (let kill = 1; kill <= KILLS; kill += 1) {
    // Wait until something is running (on either server), then a little more, and kill A.
    for (let waited = 0; waited < 60_000; waited += 100) {
      const { rows } = await db.query<{ n: string }>("select count(*) as n from flow_runs where state = 'running'");
      if (Number(rows[0]?.n) >= 2) break;
      await sleep(100);
    }
    await sleep(300 + Math.random() * 1_000);
    serverA.child.kill('SIGKILL');
    await new Promise((resolve) => serverA.child.once('exit', resolve));
    console.log(`kill -9 ${kill}/${KILLS} del servidor A`);
    serverA = await startCompiledServer(build.entry, { dataDir: join(dataDir, 'a'), env });
  }

  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    const { rows } = await db.query<{ n: string }>(`select count(*) as n from flow_runs where state != 'finished' and group_id in (${OUR_GROUPS})`);
    if (Number(rows[0]?.n) === 0) break;
    if (Date.now() > deadline) {
      failures.push(`${rows[0]?.n} ejecuciones sin terminar tras 10 minutos`);
      break;
    }
    await sleep(500);
  }

  const { rows: runs } = await db.query<{ id: string; launch_status: number | null; result: string | null; cost: number; ledger: string }>(
    `select r.id, r.launch_status, r.result, r.cost, (select count(*) from credit_ledger l where l.run_id = r.id) as ledger from flow_runs r where r.group_id in (${OUR_GROUPS})`,
  );
  const interrupted = runs.filter((run) => run.launch_status === 299);
  const succeeded = runs.filter((run) => run.launch_status === 200);
  if (runs.length !== RUNS) failures.push(`${runs.length} ejecuciones guardadas de ${RUNS} lanzadas`);
  for (const run of runs) {
    if (Number(run.ledger) > 1) failures.push(`la ejecución ${run.id} tiene ${run.ledger} cargos`);
    if (run.launch_status === 299 && (Number(run.ledger) !== 0 || Number(run.cost) !== 0)) failures.push(`la ejecución interrumpida ${run.id} se ha cobrado`);
    if (run.launch_status === 200 && Number(run.ledger) !== 1) failures.push(`la ejecución ${run.id} terminó bien y tiene ${run.ledger} cargos`);
    if (run.launch_status !== 200 && run.launch_status !== 299) failures.push(`la ejecución ${run.id} terminó con ${run.launch_status} ${run.result}`);
  }
  const { rows: usage } = await db.query<{ group_id: string; used_slans: number; ledger: number }>(
    `select s.group_id, s.used_slans, coalesce((select sum(amount) from credit_ledger l where l.group_id = s.group_id), 0) as ledger from subscriptions s where s.group_id in (${OUR_GROUPS})`,
  );
  for (const firm of usage) if (Number(firm.used_slans) !== Number(firm.ledger)) failures.push(`empresa ${firm.group_id}: ${firm.used_slans} slans usados y ${firm.ledger} en el libro`);

  console.log(`Ejecuciones: ${runs.length} · bien ${succeeded.length} · interrumpidas por el kill -9 (299, sin cargo) ${interrupted.length}`);
  console.log(`Slans por empresa (usados = libro): ${usage.map((firm) => `${Number(firm.used_slans)} = ${Number(firm.ledger)}`).join(' · ')}`);
  console.log(`${((Date.now() - started) / 1000).toFixed(0)} s`);
} catch (error) {
  failures.push(error instanceof Error ? error.message : String(error));
} finally {
  await db.end();
  await stop(serverA.child);
  await stop(serverB.child);
  await admin.query(`drop database if exists ${database} with (force)`);
  await admin.end();
  await rm(dataDir, { recursive: true, force: true });
  await rm(build.dir, { recursive: true, force: true });
}
if (failures.length > 0) {
  console.error(`FALLOS (${failures.length}):\n${failures.map((failure) => `  - ${failure}`).join('\n')}`);
  process.exitCode = 1;
} else {
  console.log('Ninguna ejecución perdida ni cobrada dos veces.');
}
