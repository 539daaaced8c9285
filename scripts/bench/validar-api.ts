/**
 * Validar identificadores through the API, as an advisor runs it (issue 19's first and last rows): the
 * compiled server on its own SQLite, a generated workers' workbook (resources/flows/validar-identificadores/
 * sample.ts) of 100,000 rows, `--big` adds 500,000 and 1,000,000:
 *  - upload: POST /api/storage/uploads until it answers (the server judges the file and counts its rows
 *    off the request thread, in a worker);
 *  - launch: POST …/execution/validar-identificadores until its 202: the cost estimate reads the count
 *    recorded at upload, the file is not parsed again;
 *  - run: the 202 until GET …/state shows the run ended, and the robot process's peak RSS (VmHWM of the
 *    server's child processes, sampled every 100 ms; the robot runs in one with a 1 GB heap);
 *  - /api/health meanwhile, p50/p99.
 * `npx tsx scripts/bench/validar-api.ts [--big]` runs it alone (it builds the server first).
 */
import SqliteDatabase from 'better-sqlite3';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sampleWorkbook } from '../../resources/flows/validar-identificadores/sample.ts';
import { startCompiledServer, stop } from '../../e2e/processes.ts';
import { launchValidar, pollHealth, putOnProPlan, signUpFirm, stateOf, uploadFile } from './bench-http.ts';
import { compiledServerBenchMain } from './bench-main.ts';
import { median, percentile } from './stats.ts';

const ROWS = [100_000];
const BIG_ROWS = [500_000, 1_000_000];

/** The largest peak RSS (VmHWM, MB) among the live children of `pid`, sampled until stopped. */
function watchChildrenPeak(pid: number): { stop: () => number } {
  let peakKb = 0;
  const sample = () => {
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const status = readFileSync(`/proc/${name}/status`, 'utf8');
        if (Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]) !== pid) continue;
        peakKb = Math.max(peakKb, Number(/^VmHWM:\s+(\d+)/m.exec(status)?.[1] ?? 0));
      } catch {
        // The process ended between the listing and the read.
      }
    }
  };
  const timer = setInterval(sample, 100);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return peakKb / 1024;
    },
  };
}

const whole = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 0 });
const one = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 1 });
const ms = (value: number | null) => (value === null ? '?' : `${one.format(value)} ms`);

export async function runValidarApiBench(entry: string, args: readonly string[] = process.argv.slice(2)): Promise<string[]> {
  const lines: string[] = [];
  const dataDir = await mkdtemp(join(tmpdir(), 'autoasesor-bench-validar-'));
  const server = await startCompiledServer(entry, { dataDir, env: { LOG_LEVEL: 'warn' } });
  const db = new SqliteDatabase(join(dataDir, 'autoasesor.sqlite'));
  db.pragma('busy_timeout = 5000');
  try {
    const { baseUrl } = server;
    for (const rows of args.includes('--big') ? [...ROWS, ...BIG_ROWS] : ROWS) {
      const email = `validar-${rows}@bench.es`;
      const firm = await signUpFirm(baseUrl, email);
      putOnProPlan(db, email);
      const workbook = Buffer.from(sampleWorkbook(rows));
      const health = pollHealth(baseUrl);
      const uploadStarted = performance.now();
      const uploaded = await uploadFile(baseUrl, firm, 'plantilla.xlsx', workbook);
      const uploadMs = performance.now() - uploadStarted;
      if (!uploaded.id) throw new Error(`Validar por la API: subida ${uploaded.status} ${uploaded.message ?? ''}`);
      const launchStarted = performance.now();
      const launched = await launchValidar(baseUrl, firm, uploaded.id, 'plantilla.xlsx');
      const launchMs = performance.now() - launchStarted;
      if (!launched.token) throw new Error(`Validar por la API: lanzamiento ${launched.status} ${launched.message ?? ''}`);
      const peak = watchChildrenPeak(server.child.pid ?? -1);
      let state = await stateOf(baseUrl, firm, launched.token);
      while (!state.output) state = await stateOf(baseUrl, firm, launched.token, 5);
      const runMs = performance.now() - launchStarted;
      const peakMb = peak.stop();
      const latencies = await health.stop();
      const output = state.output.data;
      const resultBytes = output.files.reduce((sum, file) => sum + file.size, 0);
      lines.push(
        `Validar identificadores por la API, ${whole.format(rows)} filas (.xlsx de ${one.format(workbook.length / 1e6)} MB):`,
        `  subida ${one.format(uploadMs / 1000)} s · lanzamiento (estimación del coste) ${ms(launchMs)} · ejecución ${one.format(runMs / 1000)} s, ${whole.format(rows / (runMs / 1000))} filas/s · ` +
          `${state.output.status} «${output.message ?? 'ok'}», resultado ${one.format(resultBytes / 1e6)} MB`,
        `  pico RSS del proceso del robot ${whole.format(peakMb)} MB (${peakMb <= 1024 ? '≤' : '>'} 1 GB) · /api/health mientras: p50 ${ms(median(latencies))}, p99 ${ms(percentile(latencies, 99))} (${latencies.length} peticiones)`,
      );
    }
  } finally {
    db.close();
    await stop(server.child);
    await rm(dataDir, { recursive: true, force: true });
  }
  return lines;
}

await compiledServerBenchMain(import.meta.url, (entry) => runValidarApiBench(entry));
