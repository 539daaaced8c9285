/**
 * Autopilot figures for `npm run bench` (issue 8 goal: due time -> robot started, median ≤ 1 s).
 *
 * The real path: the compiled server (`npm start`'s bundle) on a fresh SQLite file, and in this process
 * the agent's own parts put together as main/agent.ts does (certificate service on a real NSS store with
 * a test certificate, robot runtime with its spare process and browser, device link and run loop,
 * createAutopilot with host 'agent'), linked with a device token from POST /api/machines/link, with the
 * mutual-TLS stand-in portal. In-process so the robot's milestones can be read (the runtime's timing
 * callback; the agent's socket does not carry them). SLOTS one-off schedules of 'Descargar justificantes'
 * (an empty period: the robot logs in, finds nothing, ends Success with 0 documents, nothing charged)
 * fall due SPACING_MS apart, each at a random millisecond of its second (the loop ticks on whole
 * seconds, so its phase is sampled, not hidden). For each slot the autopilot's tick claims it, checks
 * the schedule, asks the server to launch the slot; the run loop takes that remote run through its long
 * poll and hands it to the spare robot process.
 *
 * Timed against the schedule's due time, on the one clock of this machine:
 *  - launched: the server created the slot's run (flow_runs.created_at);
 *  - taken: the run loop leased it (started_at);
 *  - robot started: the robot's module is running in its process (the 'robot-started' milestone): the goal;
 *  - first log line: the robot's first line on the PC ('Abriendo el portal…', after its browser context
 *    opened with the certificate), and as the server stored it (flow_run_logs.created_at; lines travel
 *    in batches within 250 ms).
 * `scripts/bench.ts` imports runAutopilotBench(); `npx tsx scripts/bench/autopilot.ts` runs it alone.
 */
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { devicesPaths, type DeviceLink } from '#shared/api/devices.ts';
import { flowsPaths, type ScheduledFlow, type ScheduleRequest } from '#shared/api/flows.ts';
import type { RobotRunEvent } from '#shared/bridge/contract.ts';
import { E2E_CERTIFICATES } from '../../e2e/certificates.ts';
import { waitFor } from '../../e2e/processes.ts';
import { createAutopilot } from '../../main/autopilot/index.ts';
import { keyFileSecretBox } from '../../main/certificates/secret-box.ts';
import { createCertificateService } from '../../main/certificates/service.ts';
import { createNssDatabase, nssToolsAvailable } from '../../main/certificates/testing/nss-database.ts';
import { createDeviceHost } from '../../main/device/device-host.ts';
import { hashMachineId } from '../../main/machine/machine-id.ts';
import { createRobotRuntime } from '../../main/robots/runtime.ts';
import type { RobotMilestone, RobotRuntime } from '../../main/robots/types.ts';
import { startStandinPortal } from '../../standins/portal/portal.ts';
import { portalOptions } from '../../standins/portal/test-certificates.ts';
import { buildServerCopy } from '../build-server.ts';
import { startBenchServer, type ServerCommand } from './server-start.ts';
import { goalVerdict, median, percentile } from './stats.ts';

export const SLOTS = 20;
const SPACING_MS = 5_000;
/** The first slot falls due this long after the schedules are made: the autopilot pulls them when it is linked. */
const LEAD_MS = 12_000;
const GOAL_MS = 1_000;
const FLOW = 'descargar-justificantes';
const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const ELENA = E2E_CERTIFICATES[0]!;
/** The stand-in lists nothing in this period: the run logs in, searches and ends, uncharged. */
const INPUTS = { certificado: ELENA.certificate.fingerprint, desde: '2020-01-01', hasta: '2020-12-31', nif: '' };

interface SlotTiming {
  launchedMs: number;
  takenMs: number;
  robotStartedMs: number;
  firstLogMs: number;
  seenByServerMs: number;
  /** The slot before it had finished by its due time (the autopilot runs one task at a time). */
  foundIdle: boolean;
}

const figures = (values: readonly number[]) =>
  `median ${median(values)?.toFixed(0)} ms, p99 ${percentile(values, 99)?.toFixed(0)} ms (best ${Math.min(...values).toFixed(0)}, worst ${Math.max(...values).toFixed(0)})`;

/** Due time -> robot started for SLOTS one-off schedules on a linked autopilot; the lines to print. */
export async function measureAutopilotLaunch(server: ServerCommand): Promise<string[]> {
  if (!nssToolsAvailable()) return ['(skipped: certutil/pk12util are missing, so the PC has no certificate for the robot)'];
  const dataDir = await mkdtemp(join(tmpdir(), 'autoasesor-bench-autopilot-'));
  const api = await startBenchServer(server);
  const portal = await startStandinPortal(portalOptions());

  // The agent's parts, as agentContext (main/agent.ts) builds them; the runtime notes each run's milestones (wall clock).
  const store = await createNssDatabase(dataDir);
  await store.importAllWithKeys([ELENA.certificate]);
  const box = keyFileSecretBox(join(dataDir, 'secret.key'));
  const certificates = createCertificateService({ platform: process.platform, settingsFile: join(dataDir, 'certificates.json'), box, nssDatabase: store.database });
  const runtime = createRobotRuntime({ certificates, chromiumPath: CHROMIUM_PATH, settingsOverrides: { [FLOW]: { baseUrl: portal.url, ignoreHTTPSErrors: true } }, spare: { browser: true } });
  const milestones = new Map<string, Partial<Record<RobotMilestone, number>>>();
  const timed: RobotRuntime = {
    running: () => runtime.running(),
    start: (job, events) =>
      runtime.start(job, {
        ...events,
        timing: (milestone) => {
          const marks = milestones.get(job.runId) ?? {};
          marks[milestone] ??= Date.now();
          milestones.set(job.runId, marks);
        },
      }),
  };
  const firstLines = new Map<string, number>();
  const emit = (event: RobotRunEvent) => {
    if (event.type === 'log' && !firstLines.has(event.runId)) firstLines.set(event.runId, new Date(event.at).getTime());
  };
  const { link, runner } = createDeviceHost({ dataFolder: dataDir, box, fetch, runtime: timed, outputRoot: join(dataDir, 'resultados'), emit, log: () => undefined });
  const autopilot = createAutopilot({ dataFolder: dataDir, link, host: 'agent', log: () => undefined });
  try {
    await runner.start();
    await autopilot.start();

    const account = { name: 'Banco de Pruebas', email: `piloto.${randomUUID().slice(0, 8)}@asesoria-bench.es`, password: 'Banco-Pruebas-42' };
    const registered = await fetch(`${api.baseUrl}/api/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(account) });
    if (registered.status !== 201) throw new Error(`Sign-up failed: ${registered.status} ${await registered.text()}`);
    const headers = { cookie: registered.headers.getSetCookie().map((line) => line.split(';')[0]).join('; '), 'content-type': 'application/json' };
    const linked = await fetch(`${api.baseUrl}${devicesPaths.link}`, { method: 'POST', headers, body: JSON.stringify({ machineHashCode: hashMachineId(`bench-${randomUUID()}`), machineName: 'PC de la oficina' }) });
    if (!linked.ok) throw new Error(`Link failed: ${linked.status} ${await linked.text()}`);
    const { machine, deviceToken } = (await linked.json()) as DeviceLink;

    // The slots, each at a random millisecond of its second; then the PC is linked and its autopilot pulls them.
    const firstDue = Date.now() + LEAD_MS;
    const schedules: ScheduledFlow[] = [];
    for (let slot = 0; slot < SLOTS; slot += 1) {
      const due = new Date(Math.floor((firstDue + slot * SPACING_MS) / 1000) * 1000 + Math.floor(Math.random() * 1000));
      const request: ScheduleRequest = { scheduledDate: due.toISOString(), flowInputs: INPUTS, machine: machine._id };
      const created = await fetch(`${api.baseUrl}${flowsPaths.scheduleCreate.replace(':flowId', FLOW)}`, { method: 'POST', headers, body: JSON.stringify(request) });
      if (created.status !== 201) throw new Error(`Scheduling failed: ${created.status} ${await created.text()}`);
      schedules.push((await created.json()) as ScheduledFlow);
    }
    await link.link(api.baseUrl, deviceToken);
    await waitFor('the autopilot to pull the schedules', async () => ((await autopilot.snapshot()).tasks.length === SLOTS ? true : undefined), LEAD_MS - 2_000, () => '');

    // Every slot runs, and its one-off schedule is deleted once it did.
    const read = <T>(work: (db: Database.Database) => T): T => {
      const db = new Database(join(api.dataDir, 'autoasesor.sqlite'), { readonly: true, fileMustExist: true });
      try {
        return work(db);
      } finally {
        db.close();
      }
    };
    const lastDue = new Date(schedules.at(-1)!.scheduledDate).getTime();
    await waitFor(
      'every slot to run',
      async () => (read((db) => (db.prepare('select count(*) as n from flow_schedules').get() as { n: number }).n) === 0 ? true : undefined),
      lastDue - Date.now() + 60_000,
      () => '',
    );

    const runs = read(
      (db) =>
        db
          .prepare(
            `select r.id, r.schedule_id, r.result, r.created_at, r.started_at, r.finished_at,
               (select min(l.created_at) from flow_run_logs l where l.run_id = r.id) as first_line_at
             from flow_runs r where r.flow_id = ?`,
          )
          .all(FLOW) as { id: string; schedule_id: string; result: string | null; created_at: string; started_at: string | null; finished_at: string | null; first_line_at: string | null }[],
    );
    if (runs.length !== SLOTS) throw new Error(`${SLOTS} slots made ${runs.length} runs`);
    const timings: SlotTiming[] = schedules.map((schedule, index) => {
      const run = runs.find((candidate) => candidate.schedule_id === schedule._id);
      const robotStarted = run ? milestones.get(run.id)?.['robot-started'] : undefined;
      const firstLog = run ? firstLines.get(run.id) : undefined;
      if (!run || run.result !== 'Success' || !run.started_at || !run.first_line_at || robotStarted === undefined || firstLog === undefined) {
        throw new Error(`Slot ${index + 1} did not run as expected: ${JSON.stringify(run)}`);
      }
      const due = new Date(schedule.scheduledDate).getTime();
      const before = index === 0 ? undefined : runs.find((candidate) => candidate.schedule_id === schedules[index - 1]!._id);
      return {
        launchedMs: new Date(run.created_at).getTime() - due,
        takenMs: new Date(run.started_at).getTime() - due,
        robotStartedMs: robotStarted - due,
        firstLogMs: firstLog - due,
        seenByServerMs: new Date(run.first_line_at).getTime() - due,
        foundIdle: !before?.finished_at || new Date(before.finished_at).getTime() <= due,
      };
    });

    const started = timings.map((timing) => timing.robotStartedMs);
    const verdict = goalVerdict([{ ok: (median(started) ?? Infinity) <= GOAL_MS, what: `median ≤ ${GOAL_MS} ms` }]);
    return [
      `due -> run launched on the server         ${figures(timings.map((timing) => timing.launchedMs))}`,
      `due -> run taken by the PC's run loop     ${figures(timings.map((timing) => timing.takenMs))}`,
      `due -> robot started (its module running) ${figures(started)}`,
      `due -> robot's first log line, on the PC  ${figures(timings.map((timing) => timing.firstLogMs))}`,
      `due -> that line stored by the server     ${figures(timings.map((timing) => timing.seenByServerMs))}`,
      `${SLOTS} one-off slots ${SPACING_MS / 1000} s apart at random ms of their second (${timings.filter((timing) => timing.foundIdle).length}/${SLOTS} found the autopilot idle); ` +
        `compiled server; the agent's autopilot (1 s tick), run loop (long poll) and spare robot process in this process; Descargar justificantes with an NSS certificate on the stand-in portal`,
      `autopilot goal (due -> robot started, median ≤ ${GOAL_MS} ms): ${verdict}`,
    ];
  } finally {
    await autopilot.stop();
    await runner.shutdown(5_000);
    runtime.close();
    await Promise.all([api.stop(), portal.close()]);
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The autopilot's figures; `server` is the compiled server to run against (built here when absent). */
export async function runAutopilotBench(server?: ServerCommand): Promise<string[]> {
  const build = server ? null : await buildServerCopy();
  try {
    return await measureAutopilotLaunch(server ?? { kind: 'compiled', entry: (build as { entry: string }).entry });
  } finally {
    if (build) await rm(build.dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const line of await runAutopilotBench()) console.log(line);
}
