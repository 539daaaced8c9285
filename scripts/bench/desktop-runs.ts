/**
 * Desktop runs figures for `npm run bench` (issue 7 goals):
 *  - launch -> first log line of a desktop flow, ≤ 500 ms on the agent. The real runtime
 *    (createRobotRuntime, the agent's robot process from source through tsx) runs the real 'Descargar
 *    justificantes'. Its first line ('Abriendo el portal…') comes after it opened its browser with the
 *    chosen certificate, so the run has a real one: a .p12 folder with a test FNMT certificate (unlocked
 *    in the certificate service, as on a PC), and the mutual-TLS stand-in portal, asked for an empty
 *    period (the run then ends quickly, Success with 0 documents). Timed with measureRobotLaunch, cold
 *    (a process, tsx and Chromium started for the run) and warm (the agent's spare process, prepared
 *    while the machine was idle).
 *  - remote launch -> agent: the compiled server (`npm start`'s bundle) on a fresh SQLite file, and the
 *    real device runner (createDeviceHost) linked with a device token from POST /api/machines/link,
 *    long-polling as the agent does. Its runtime only notes when start() is called and ends the run at
 *    once as failed (nothing is charged). Timed from just before the POST execution (the run is queued
 *    inside it, so this bounds queued -> started from above) and from its 202 to start(); the runner
 *    often has the run before the caller has the 202, which shows as a negative time.
 * `scripts/bench.ts` imports runDesktopRunsBench(); `npx tsx scripts/bench/desktop-runs.ts` runs it alone.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { devicesPaths, type DeviceLink } from '#shared/api/devices.ts';
import type { ExecutionStateResponse } from '#shared/api/flows.ts';
import type { RobotRunEvent } from '#shared/bridge/contract.ts';
import { keyFileSecretBox } from '../../main/certificates/secret-box.ts';
import { createCertificateService } from '../../main/certificates/service.ts';
import { createPkcs12, createTestCertificate } from '../../main/certificates/testing/spanish-certificates.ts';
import { createDeviceHost } from '../../main/device/device-host.ts';
import { measureRobotLaunch, type RobotLaunchTimings } from '../../main/robots/bench.ts';
import { createRobotRuntime, type RobotRuntimeHost } from '../../main/robots/runtime.ts';
import type { RobotOutcome, RobotRuntime } from '../../main/robots/types.ts';
import { startStandinPortal } from '../../standins/portal/portal.ts';
import { portalOptions } from '../../standins/portal/test-certificates.ts';
import { buildServerCopy } from '../build-server.ts';
import { startBenchServer, type ServerCommand } from './server-start.ts';
import { goalVerdict, median, percentile } from './stats.ts';

export const RUNS = 20;
const FLOW_ID = 'descargar-justificantes';
const LAUNCH_GOAL_MS = 500;
const REMOTE_GOAL_MS = 1_000;
const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const P12_PASSWORD = 'Clave-Banco-1';
/** The stand-in portal lists nothing in this period: the run logs in, searches and ends. */
const EMPTY_PERIOD = { desde: '2020-01-01', hasta: '2020-12-31' };

const figures = (values: readonly number[]) => `median ${median(values)?.toFixed(0)} ms, p95 ${percentile(values, 95)?.toFixed(0)} ms (best ${Math.min(...values).toFixed(0)}, worst ${Math.max(...values).toFixed(0)})`;

/** The certificate service of a PC whose .p12 folder holds one certificate, its password saved. */
async function pcWithCertificate(dataDir: string) {
  const holder = createTestCertificate({ nif: '78816596N', givenName: 'ANA', surnames: 'MARTIN SANZ', keyType: 'ec' });
  const folder = join(dataDir, 'certificados');
  await mkdir(folder);
  await writeFile(join(folder, 'ana.p12'), createPkcs12(holder, P12_PASSWORD));
  const certificates = createCertificateService({ platform: process.platform, settingsFile: join(dataDir, 'certificates.json'), box: keyFileSecretBox(join(dataDir, 'secret.key')), nssDatabase: `sql:${join(dataDir, 'sin-nss')}` });
  await certificates.setFolder(folder);
  await certificates.unlock('ana.p12', P12_PASSWORD);
  return { certificates, fingerprint: holder.fingerprint };
}

/** RUNS timed launches of the real flow; before each warm one the spare is left to get ready, as on an idle agent. */
async function timeLaunches(runtime: RobotRuntimeHost, fingerprint: string, dataDir: string, label: string): Promise<RobotLaunchTimings[]> {
  const timings: RobotLaunchTimings[] = [];
  for (let run = -1; run < RUNS; run += 1) {
    await runtime.warm();
    const runId = randomUUID();
    const timing = await measureRobotLaunch(runtime, {
      runId,
      flowId: FLOW_ID,
      inputs: { certificado: fingerprint, ...EMPTY_PERIOD, nif: '' },
      timeLimitSeconds: 120,
      startedAt: new Date().toISOString(),
      outputFolder: join(dataDir, 'resultados', label, runId),
    });
    if (timing.outcome.kind !== 'result' || timing.outcome.result !== 'Success' || timing.firstLogLineMs === null) {
      throw new Error(`Descargar justificantes (${label}) did not run as expected: ${JSON.stringify(timing.outcome)}`);
    }
    if (run >= 0) timings.push(timing); // run -1 warms the disk cache and tsx's compile cache
  }
  return timings;
}

/** Launch -> first log line, cold and warm. */
export async function measureDesktopLaunch(): Promise<string[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'autoasesor-bench-desktop-'));
  const portal = await startStandinPortal(portalOptions());
  try {
    const { certificates, fingerprint } = await pcWithCertificate(dataDir);
    const runtimeFor = (spare: boolean) =>
      createRobotRuntime({
        certificates,
        chromiumPath: CHROMIUM_PATH,
        settingsOverrides: { [FLOW_ID]: { baseUrl: portal.url, ignoreHTTPSErrors: true } },
        ...(spare ? { spare: { browser: true } } : {}),
      });
    const lines: string[] = [];
    const results: Record<'cold' | 'warm', number[]> = { cold: [], warm: [] };
    for (const kind of ['cold', 'warm'] as const) {
      const runtime = runtimeFor(kind === 'warm');
      try {
        const timings = await timeLaunches(runtime, fingerprint, dataDir, kind);
        const firstLines = timings.map((timing) => timing.firstLogLineMs as number);
        const ready = timings.map((timing) => timing.milestones['process-ready'] ?? 0);
        results[kind] = firstLines;
        const what = kind === 'cold' ? 'cold (process + tsx + Chromium per run)' : 'warm (the agent\'s spare, prepared)  ';
        lines.push(`launch -> first log line, ${what}  ${figures(firstLines)}; process ready: median ${median(ready)?.toFixed(0)} ms`);
      } finally {
        runtime.close();
      }
    }
    const warm = results.warm;
    const verdict = goalVerdict([
      { ok: (median(warm) ?? Infinity) <= LAUNCH_GOAL_MS, what: `median ≤ ${LAUNCH_GOAL_MS} ms` },
      { ok: (percentile(warm, 95) ?? Infinity) <= LAUNCH_GOAL_MS, what: `p95 ≤ ${LAUNCH_GOAL_MS} ms` },
    ]);
    lines.push(`launch goal (≤ ${LAUNCH_GOAL_MS} ms on the agent, which keeps a spare; ${RUNS} runs each, real flow and certificate, stand-in portal): ${verdict}`);
    return lines;
  } finally {
    await portal.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** A runtime that notes when each run reaches it and ends it at once (the robot is not what is timed here). */
function recordingRuntime(): RobotRuntime & { startedAt: Map<string, number> } {
  const startedAt = new Map<string, number>();
  const ended: RobotOutcome = { kind: 'failed', message: 'Banco de pruebas: solo se mide cuándo llega el lanzamiento al dispositivo' };
  return {
    startedAt,
    running: () => 0,
    start(job) {
      startedAt.set(job.runId, performance.now());
      return { runId: job.runId, outcome: Promise.resolve(ended), stop: () => undefined };
    },
  };
}

interface RemoteLaunch {
  /** The 202 (run queued) -> the device runner's start(). */
  fromAnswerMs: number;
  /** Just before the POST -> start(). */
  fromRequestMs: number;
}

/** Remote launch latency: the web's POST execution for a linked machine -> the agent's runtime.start(). */
export async function measureRemoteLaunch(server: ServerCommand): Promise<string[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'autoasesor-bench-remote-'));
  const api = await startBenchServer(server);
  const runtime = recordingRuntime();
  const finished = new Map<string, () => void>();
  const emit = (event: RobotRunEvent) => {
    if (event.type === 'finished') finished.get(event.runId)?.();
  };
  const { link, runner } = createDeviceHost({ dataFolder: dataDir, box: keyFileSecretBox(join(dataDir, 'secret.key')), fetch, runtime, outputRoot: join(dataDir, 'resultados'), emit, log: () => undefined });
  try {
    const account = { name: 'Banco de Pruebas', email: 'remoto@asesoria-bench.es', password: 'Banco-Pruebas-42' };
    const registered = await fetch(`${api.baseUrl}/api/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(account) });
    if (registered.status !== 201) throw new Error(`Sign-up failed: ${registered.status} ${await registered.text()}`);
    const cookie = registered.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
    const headers = { cookie, 'content-type': 'application/json' };

    const linked = await fetch(`${api.baseUrl}${devicesPaths.link}`, { method: 'POST', headers, body: JSON.stringify({ machineHashCode: 'b'.repeat(64), machineName: 'PC de la oficina' }) });
    if (!linked.ok) throw new Error(`Link failed: ${linked.status} ${await linked.text()}`);
    const { machine, deviceToken } = (await linked.json()) as DeviceLink;
    await link.link(api.baseUrl, deviceToken);
    await runner.start();

    const launchOnce = async (key: string): Promise<RemoteLaunch> => {
      const sentAt = performance.now();
      const response = await fetch(`${api.baseUrl}/api/browserflow/execution/${FLOW_ID}`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ inputs: { certificado: 'ab'.repeat(32), ...EMPTY_PERIOD, nif: '' }, idempotencyKey: key, machineId: machine._id }),
      });
      const answeredAt = performance.now();
      if (response.status !== 202) throw new Error(`Remote launch answered ${response.status}: ${await response.text()}`);
      const { runId } = (await response.json()) as ExecutionStateResponse;
      // The run is closed on the server (finish) before the next launch: one run at a time, as measured.
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`The device runner did not take run ${runId} within 30 s`)), 30_000);
        finished.set(runId, () => {
          clearTimeout(timer);
          resolve();
        });
      });
      const startedAt = runtime.startedAt.get(runId);
      if (startedAt === undefined) throw new Error(`Run ${runId} finished without reaching the runtime`);
      return { fromAnswerMs: startedAt - answeredAt, fromRequestMs: startedAt - sentAt };
    };

    await launchOnce('bench-remote-warm-up'); // the first also waits for the runner's first long poll
    const launches: RemoteLaunch[] = [];
    for (let i = 0; i < RUNS; i += 1) launches.push(await launchOnce(`bench-remote-${i}`));
    const fromAnswer = launches.map((launch) => launch.fromAnswerMs);
    const fromRequest = launches.map((launch) => launch.fromRequestMs);
    const verdict = goalVerdict([
      { ok: (percentile(fromRequest, 95) ?? Infinity) <= REMOTE_GOAL_MS, what: `p95 ≤ ${REMOTE_GOAL_MS} ms from the request` },
    ]);
    const early = fromAnswer.filter((ms) => ms <= 0).length;
    return [
      // The run is queued inside the POST, so POST sent -> start() bounds queued -> started from above.
      `remote launch, POST sent -> agent start()   ${figures(fromRequest)}`,
      `remote launch, 202 (queued) -> agent start()   ${figures(fromAnswer)}; in ${early} of ${RUNS} runs the agent had started before the 202 reached the caller`,
      `remote-launch goal (queued -> agent started ≤ 1 s; compiled server, device runner long-polling, ${RUNS} runs): ${verdict}`,
    ];
  } finally {
    await runner.shutdown(5_000);
    await api.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Both desktop-runs figures; `server` is the compiled server to launch against (built here when absent). */
export async function runDesktopRunsBench(server?: ServerCommand): Promise<string[]> {
  const build = server ? null : await buildServerCopy();
  try {
    const compiled: ServerCommand = server ?? { kind: 'compiled', entry: (build as { entry: string }).entry };
    return [...(await measureDesktopLaunch()), ...(await measureRemoteLaunch(compiled))];
  } finally {
    if (build) await rm(build.dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const line of await runDesktopRunsBench()) console.log(line);
}
