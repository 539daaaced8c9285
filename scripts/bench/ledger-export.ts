/**
 * The credit ledger's .xlsx export (server/modules/billing/ledger-export.ts) of one firm with 1,000,000
 * charges (issue 42; 100,000 without `--big`), on a SQLite database seeded straight through SQL (one
 * user, one flow, a run per charge). Each case in a process of its own, so its peak RSS is its own:
 *  - streamed: writeLedgerWorkbook, the route's path, its bytes handed to a file as they are made
 *    (the route hands them to the HTTP reply the same way)
 *  - in memory: ledgerWorkbook, the whole workbook built and given at the end (the route's path before
 *    issue 42)
 * Goal: ≤ 200 MB peak RSS streamed at 1,000,000 lines.
 * `npx tsx scripts/bench/ledger-export.ts [--big]` runs it alone.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { connectDatabase } from '../../server/db/connect.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import * as ledgerExport from '../../server/modules/billing/ledger-export.ts';
import { benchMain } from './bench-main.ts';

const LINES = 100_000;
const BIG_LINES = 1_000_000;
const GOAL_MB = 200;
const GROUP = 'grupo-banco';
const PERIOD = { from: '2026-01-01T00:00:00.000Z', to: '2027-01-01T00:00:00.000Z' };
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SELF = fileURLToPath(import.meta.url);

interface ChildResult {
  seconds: number;
  bytes: number;
  maxRssMb: number;
}

/** A value for each NOT NULL column without a default, so the bench does not depend on every column's meaning. */
function filler(file: Database.Database, table: string): Record<string, unknown> {
  const columns = file.prepare(`PRAGMA table_info(${table})`).all() as { name: string; type: string; notnull: number; dflt_value: unknown }[];
  return Object.fromEntries(columns.filter((column) => column.notnull === 1 && column.dflt_value === null).map((column) => [column.name, /INT|REAL|NUM/i.test(column.type) ? 0 : '']));
}

function insertRow(file: Database.Database, table: string, row: Record<string, unknown>): void {
  const names = Object.keys(row);
  file.prepare(`INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`).run(...names.map((name) => row[name]));
}

/** A fresh database (migrated) with one firm, one user, one flow, and `lines` charged runs over 2026. */
async function seed(path: string, lines: number): Promise<void> {
  const db = connectDatabase({ kind: 'sqlite', file: path });
  await migrateToLatest(db);
  await db.destroy();
  const file = new Database(path);
  file.pragma('journal_mode = WAL');
  const now = '2026-01-01T00:00:00.000Z';
  insertRow(file, 'groups', { ...filler(file, 'groups'), id: GROUP, name: 'Asesoría del banco', created_at: now });
  insertRow(file, 'users', { ...filler(file, 'users'), id: 'usuario-banco', group_id: GROUP, name: 'Ana Banco', email: 'ana@banco.es', created_at: now });
  const definition = JSON.stringify({ usageMeasureUnit: 'fila|filas' });
  insertRow(file, 'flows', { ...filler(file, 'flows'), id: 'validar-identificadores', name: 'Validar identificadores', definition });
  const run = { ...filler(file, 'flow_runs'), group_id: GROUP, user_id: 'usuario-banco', flow_id: 'validar-identificadores', flow_name: 'Validar identificadores', state: 'finished' };
  // Unique per run: its id, its token and its idempotency key.
  const runColumns = Object.keys(run).filter((name) => !['id', 'created_at', 'execution_token', 'idempotency_key'].includes(name));
  const insertRun = file.prepare(`INSERT INTO flow_runs (id, created_at, execution_token, idempotency_key, ${runColumns.join(', ')}) VALUES (?, ?, ?, ?, ${runColumns.map(() => '?').join(', ')})`);
  const insertCharge = file.prepare('INSERT INTO credit_ledger (id, group_id, run_id, usage_units, usage_ratio, amount, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const start = Date.parse(PERIOD.from);
  const step = (Date.parse(PERIOD.to) - start) / (lines + 1);
  const batch = file.transaction((from: number, to: number) => {
    for (let line = from; line < to; line += 1) {
      const id = randomUUID();
      const at = new Date(start + Math.floor(line * step)).toISOString();
      insertRun.run(id, at, id, id, ...runColumns.map((name) => run[name as keyof typeof run]));
      insertCharge.run(randomUUID(), GROUP, id, 1 + (line % 40), 2, 2 * (1 + (line % 40)), at);
    }
  });
  for (let from = 0; from < lines; from += 50_000) batch(from, Math.min(lines, from + 50_000));
  file.close();
}

async function child(mode: string, path: string, out: string): Promise<ChildResult> {
  const db = connectDatabase({ kind: 'sqlite', file: path });
  const started = performance.now();
  let bytes = 0;
  if (mode === 'stream') {
    const file = createWriteStream(out);
    await ledgerExport.writeLedgerWorkbook(db, GROUP, PERIOD, ledgerExport.writableSink(file));
    bytes = statSync(out).size;
  } else {
    bytes = (await ledgerExport.ledgerWorkbook(db, GROUP, PERIOD)).length;
  }
  const seconds = (performance.now() - started) / 1000;
  await db.destroy();
  return { seconds, bytes, maxRssMb: process.resourceUsage().maxRSS / 1024 };
}

function runChild(mode: string, path: string, out: string): ChildResult {
  const output = execFileSync(process.execPath, ['--import', 'tsx', SELF, '--child', mode, path, out], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as ChildResult;
}

const number = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 1 });
const whole = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 0 });

export async function runLedgerExportBench(args: readonly string[] = process.argv.slice(2)): Promise<string[]> {
  const directory = mkdtempSync(join(tmpdir(), 'ledger-export-bench-'));
  const lines: string[] = [];
  try {
    for (const count of args.includes('--big') ? [LINES, BIG_LINES] : [LINES]) {
      const path = join(directory, `ledger-${count}.sqlite`);
      await seed(path, count);
      const out = join(directory, 'consumo.xlsx');
      const streamed = runChild('stream', path, out);
      const inMemory = runChild('memory', path, out);
      const line = (label: string, result: ChildResult) =>
        `    ${label}: ${number.format(result.seconds)} s, ${whole.format(count / result.seconds)} líneas/s, pico RSS ${whole.format(result.maxRssMb)} MB, .xlsx de ${number.format(result.bytes / 1e6)} MB`;
      lines.push(
        `  ${whole.format(count)} líneas de consumo de una asesoría (SQLite):`,
        line('en flujo (writeLedgerWorkbook, la ruta)  ', streamed),
        line('en memoria (ledgerWorkbook, antes)        ', inMemory),
        `    en flujo: ${whole.format((100 * streamed.maxRssMb) / inMemory.maxRssMb)} % del pico RSS en memoria${count >= BIG_LINES ? `; objetivo ≤ ${GOAL_MB} MB: ${streamed.maxRssMb <= GOAL_MB ? 'cumplido' : 'NO cumplido'}` : ''}`,
      );
      rmSync(path, { force: true });
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
  return lines;
}

await benchMain(import.meta.url, () => runLedgerExportBench(), ([mode = '', path = '', out = '']) => child(mode, path, out));
