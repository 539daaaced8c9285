/**
 * npm run bench: prints the figures we watch. Not a test: nothing here passes or fails on a number.
 *  - the JS each main route loads on a first visit (raw, gzip -9, and brotli as the server sends it)
 *  - Lighthouse performance score and LCP for /auth, mobile and desktop
 *  - the server's cold start to its first 200 on a fresh database: compiled (npm start) and tsx (npm run dev)
 *  - flows: one run-history page of a million runs under load beside a bare Fastify hello-world and beside
 *    its floor (bare Fastify + the same four statements prepared with better-sqlite3, interleaved rounds), and
 *    launch to first log line of a server flow (scripts/bench/flows.ts)
 *  - desktop runs: launch -> first log line of a desktop flow, cold and with the agent's spare process,
 *    and a remote launch's way to the agent (scripts/bench/desktop-runs.ts)
 *  - safety and fairness: /api/health while a zip bomb is uploaded and launched, and one firm's run behind
 *    another's 1,000 (scripts/bench/fair-share.ts)
 *  - big bodies (issue 39): each route that takes a large body, 3 of its largest at once, /api/health p99 and
 *    the server's peak RSS growth meanwhile (scripts/bench/big-bodies.ts)
 *  - FIE module: a 100,000-entry upload (entries/s, /api/health meanwhile) and the list's filters over
 *    10,000 entries (scripts/bench/fie-module.ts)
 *  - Validar identificadores through the API (100,000 rows; `--big` adds 500,000 and 1,000,000): upload,
 *    launch with its cost estimate, run to its end, the robot process's peak RSS (scripts/bench/validar-api.ts)
 *  - autopilot: a scheduled slot's due time -> its robot started, median and p99 (scripts/bench/autopilot.ts)
 *  - FIE decode throughput, and the table filter/sort bench when those files exist
 *  - robots at scale: Validar identificadores (100,000 rows) and FIE a incidencias A3 (10,000 and 100,000
 *    entries) streamed, each beside its floor, with peak RSS; `--big` adds the 1,000,000 cases
 *  - certificates: GetCertificatesList with 200 certificates in a real NSS database (scripts/bench/certificates.ts)
 *  - online forms: 10,000 submissions of one form listed, filtered and exported (scripts/bench/onlineforms.ts)
 *  - macros: a recording replayed 100 times, and a loop over a 1,000-row workbook (scripts/bench/macros.ts)
 * `--build` rebuilds the web app first (it is built anyway when dist/renderer has no index.html).
 */
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { buildServerCopy } from './build-server.ts';
import { runAutopilotBench } from './bench/autopilot.ts';
import { runBigBodiesBench } from './bench/big-bodies.ts';
import { runDesktopRunsBench } from './bench/desktop-runs.ts';
import { runFairShareBench } from './bench/fair-share.ts';
import { runFieModuleBench } from './bench/fie-module.ts';
import { runFlowsBench } from './bench/flows.ts';
import { runLighthouse } from './bench/lighthouse.ts';
import { runValidarApiBench } from './bench/validar-api.ts';
import { measureColdStart, startBenchServer, type ServerCommand } from './bench/server-start.ts';
import { measureRouteScripts } from './bench/web-bundle.ts';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const ms = (value: number | null) => (value === null ? '?' : `${(value / 1000).toFixed(2)} s`);

if (!existsSync('dist/renderer/index.html') || process.argv.includes('--build')) {
  execSync('npm run -s build:web', { stdio: 'inherit' });
}

/** Runs an optional bench module (written by others) if it is there: `name` is its exported function. */
async function optionalBench(file: string, name: string): Promise<void> {
  if (!existsSync(new URL(file, import.meta.url))) {
    console.log('(not built yet)');
    return;
  }
  const module = (await import(file)) as Record<string, unknown>;
  const run = module[name];
  if (typeof run !== 'function') {
    console.log(`(${file} has no ${name}())`);
    return;
  }
  const lines: unknown = await run();
  if (Array.isArray(lines)) for (const line of lines) console.log(line);
}

const serverBuild = await buildServerCopy();
const compiled: ServerCommand = { kind: 'compiled', entry: serverBuild.entry };
try {
  console.log('== Web bundle: JS loaded on a first visit (fresh cache, until the network is idle)');
  const server = await startBenchServer(compiled);
  try {
    const demo = { email: 'demo@autoasesor.es', password: 'Demo1234!' };
    const visits = [
      ['/auth', undefined],
      ['/home', demo],
      ['/flows', demo],
      ['/altasybajas', demo],
      ['/payments', demo],
      ['/userprofile', demo],
    ] as const;
    for (const [route, signIn] of visits) {
      const figures = await measureRouteScripts(`${server.baseUrl}${route}`, signIn);
      const label = `${route} (${signIn ? 'signed in' : 'signed out'})`;
      console.log(
        `${label.padEnd(26)} ${String(figures.files).padStart(2)} files  ${kb(figures.rawBytes).padStart(10)} raw  ${kb(figures.gzipBytes).padStart(9)} gzip  ` +
          `${kb(figures.brTransferBytes).padStart(9)} sent as br (${figures.brEncodedFiles}/${figures.files} files encoded)`,
      );
    }

    console.log('== Lighthouse on /auth (performance)');
    for (const result of await runLighthouse(`${server.baseUrl}/auth`)) {
      console.log(`${result.formFactor.padEnd(8)} score ${result.score ?? '?'}  LCP ${ms(result.lcpMs)}  FCP ${ms(result.fcpMs)}  TBT ${result.tbtMs?.toFixed(0) ?? '?'} ms`);
    }
  } finally {
    await server.stop();
  }

  console.log('== Server cold start (spawn -> first 200 on /api/health, fresh SQLite; 5 runs each, taken in turns so load hits all alike)');
  const starts = [['compiled (npm start)', compiled], ['tsx (npm run dev)', { kind: 'tsx' }], ['bare Fastify', { kind: 'bare' }]] as const;
  const runs = starts.map((): number[] => []);
  for (let round = 0; round < 5; round++) for (const [index, [, command]] of starts.entries()) runs[index]?.push(await measureColdStart(command));
  const medians = runs.map((times) => [...times].sort((a, b) => a - b)[2] ?? Number.NaN);
  for (const [index, [label]] of starts.entries()) {
    const times = [...(runs[index] ?? [])].sort((a, b) => a - b);
    console.log(`${label.padEnd(22)} median ${medians[index]?.toFixed(0)} ms, best ${times[0]?.toFixed(0)} ms (runs: ${times.map((run) => run.toFixed(0)).join(', ')} ms)`);
  }
  const ratio = (medians[0] ?? Number.NaN) / (medians[2] ?? Number.NaN);
  console.log(`compiled / bare Fastify: ${ratio.toFixed(2)}x · goal <= 2x: ${ratio <= 2 ? 'met' : 'NOT met'}`);

  console.log('== Flows: run history of a million runs under load (compiled server) and beside its floor (goal ≥ 85 %), launch to first log line');
  await runFlowsBench(compiled);

  console.log('== Desktop runs: launch -> first log line of Descargar justificantes (stand-in portal), remote launch -> agent (compiled server)');
  for (const line of await runDesktopRunsBench(compiled)) console.log(line);

  console.log('== Safety and fairness: /api/health while a 1,000,000-row zip bomb is uploaded and launched; one firm\'s run behind another\'s 1,000 (compiled server)');
  for (const line of await runFairShareBench(serverBuild.entry)) console.log(line);

  console.log('== Big bodies: 3 of the largest body each route takes, at once; /api/health p99 and peak RSS growth meanwhile (compiled server; goal ≤ 100 ms, ≤ +300 MB)');
  for (const line of await runBigBodiesBench(serverBuild.entry)) console.log(line);

  console.log('== FIE module: a 100,000-entry upload with /api/health meanwhile; the list and its filters over 10,000 entries (compiled server)');
  for (const line of await runFieModuleBench(serverBuild.entry)) console.log(line);

  console.log('== Validar identificadores through the API: upload, launch (the cost estimate), run to its end, the robot process\'s peak RSS (compiled server)');
  for (const line of await runValidarApiBench(serverBuild.entry)) console.log(line);

  console.log('== Autopilot: due time -> robot started, 20 scheduled slots (compiled server, the agent\'s autopilot, run loop and spare robot)');
  for (const line of await runAutopilotBench(compiled)) console.log(line);
} finally {
  await rm(serverBuild.dir, { recursive: true, force: true });
}

console.log('== FIE decoding');
await optionalBench('./bench/fie-bench.ts', 'runFieBench');

console.log('== Robots at scale: Validar identificadores on a generated workbook, streamed, beside the floor of its libraries and SheetJS in memory');
await optionalBench('./bench/validar-bench.ts', 'runValidarBench');

console.log('== Robots at scale: FIE a incidencias A3 on generated FIEs, streamed, beside its floor (Latin-1 + line split + XlsxWriter)');
await optionalBench('./bench/fie-robot-bench.ts', 'runFieRobotBench');

console.log('== Credit ledger export: a firm\'s 100,000 lines (--big: 1,000,000) to .xlsx, streamed beside in memory, peak RSS (goal ≤ 200 MB at 1M)');
await optionalBench('./bench/ledger-export.ts', 'runLedgerExportBench');

console.log('== Table: filter/sort');
await optionalBench('./bench/table-bench.ts', 'runTableBench');

console.log('== Certificates: GetCertificatesList with 200 certificates in the NSS store');
await optionalBench('./bench/certificates.ts', 'runCertificatesBench');

console.log('== Online forms: 10,000 submissions of one form listed, filtered and exported (in-process, server time; goal ≤ 200 ms)');
await optionalBench('./bench/onlineforms.ts', 'runOnlineFormsBench');

console.log('== Documents: a 20-page document rendered to PDF and .docx in the rendering process (goal ≤ 2 s)');
await optionalBench('./bench/documents.ts', 'runDocumentsBench');

console.log('== Macros: a recording replayed 100 times (goal ≥ 99 identical), and a loop over a 1,000-row workbook');
await optionalBench('./bench/macros.ts', 'runMacrosBench');
