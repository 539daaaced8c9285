import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeviceRunOutcome } from '#shared/api/devices.ts';
import { decodeFie } from '#shared/fie/decode.ts';
import { startA3Importer, type A3Importer } from '../../standins/a3-importer/importer.ts';
import { sampleFierFile } from '../../standins/fier/files.ts';
import { startStandinFier } from '../../standins/fier/fier.ts';
import { portalOptions, serverAuthority, SERVER_NAME } from '../../standins/portal/test-certificates.ts';
import { robotsTaskFrom } from '../autopilot/apps.ts';
import { createAutopilot } from '../autopilot/index.ts';
import { fakeLink, fakeScheduleServer, manualCron, manualTimers } from '../autopilot/testing/fake-schedule-server.ts';
import type { AutopilotService } from '../autopilot/types.ts';
import { createPkcs12, createTestCertificate, testAuthority } from '../certificates/testing/spanish-certificates.ts';
import { createDeviceRunner, type DeviceRunner } from '../device/run-loop.ts';
import { deviceServerClient, type DeviceServerClient } from '../device/server-client.ts';
import { startFakeDeviceApi, type FakeDeviceApi } from '../device/testing/fake-device-api.ts';
import type { RobotJob, RobotRuntime } from '../robots/types.ts';
import { createFieDesktop } from './desktop.ts';
import { NOTHING_PENDING_MESSAGE, unknownProcessMessage, withLocalProcesses } from './local-processes.ts';
import { startFakeFieServer } from './testing/fake-fie-server.ts';

const PASSPHRASE = 'clave-de-prueba';
const holder = createTestCertificate({ nif: '78816596N', givenName: 'ELENA', surnames: 'RODRIGUEZ GARCIA', keyType: 'ec' });
const pfx = Buffer.from(createPkcs12(holder, PASSPHRASE, { extraCertificates: [testAuthority('AC FNMT Usuarios')] }));
/** 07:00 UTC on the 26th: 'yesterday' at the office is the 25th. */
const NOW = new Date('2026-11-26T07:00:00Z');

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The robots' own runtime in these tests: records what reached it. */
function robotsRuntime(): RobotRuntime & { jobs: RobotJob[] } {
  const jobs: RobotJob[] = [];
  return {
    jobs,
    start: (job) => {
      jobs.push(job);
      return { runId: job.runId, outcome: Promise.resolve({ kind: 'result', result: 'Success', usageUnits: 1, outputFolder: job.outputFolder, outputFileNames: [] }), stop: () => undefined };
    },
    running: () => 0,
  };
}

async function fieWorld(fierDays: string[], folderDays: string[], a3AnswerTimeoutMs = 5000) {
  const fier = await startStandinFier({ ...portalOptions(), files: fierDays.map((day) => sampleFierFile(day, 3)) });
  const fieServer = await startFakeFieServer();
  const siltra = await mkdtemp(join(tmpdir(), 'siltra-'));
  const a3 = await mkdtemp(join(tmpdir(), 'a3-'));
  for (const day of folderDays) await writeFile(join(siltra, `FIE_${day}.txt`), sampleFierFile(day, 3).bytes);
  cleanups.push(() => fier.close(), () => fieServer.close(), () => rm(siltra, { recursive: true, force: true }), () => rm(a3, { recursive: true, force: true }));
  const fie = createFieDesktop({
    link: { ready: async () => undefined, current: () => ({ serverUrl: fieServer.url, deviceToken: fieServer.deviceToken, machine: { _id: 'm1', name: 'OFICINA-01' } }) },
    certificates: { clientCertificate: async () => ({ pfx, passphrase: PASSPHRASE }) },
    settings: async () => ({ siltraFolder: siltra, fierUrl: fier.url, fierCa: [serverAuthority().pem], a3ImportDir: a3, a3AnswerTimeoutMs }),
    fetch,
    now: () => NOW,
    fierServername: SERVER_NAME,
  });
  return { fier, fieServer, siltra, a3, fie };
}

function job(localProcess: string | undefined, inputs: Record<string, unknown> = {}): RobotJob {
  return { runId: 'run-1', flowId: 'descargar-justificantes', inputs, timeLimitSeconds: 600, startedAt: NOW.toISOString(), outputFolder: join(tmpdir(), 'aa-local-process-run-1'), ...(localProcess ? { localProcess } : {}) };
}
const lines: { level: string; text: string }[] = [];
const events = { log: (level: string, text: string) => void lines.push({ level, text }), progress: () => undefined };

describe('local processes runtime', () => {
  it('hands a job without a local process to the robots', async () => {
    const robots = robotsRuntime();
    const runtime = withLocalProcesses(robots, { fie: () => { throw new Error('not used'); } });
    await runtime.start(job(undefined), events).outcome;
    expect(robots.jobs.map((each) => each.runId)).toEqual(['run-1']);
  });

  it('fails a process this PC does not know (the altas ones) with a clear message', async () => {
    const runtime = withLocalProcesses(robotsRuntime(), { fie: () => { throw new Error('not used'); } });
    await expect(runtime.start(job('sync-altas'), events).outcome).resolves.toEqual({ kind: 'failed', message: unknownProcessMessage('sync-altas') });
  });

  it("get-fie-siltra: yesterday's FIE only, folder and FIER (with the schedule's certificate) uploaded once each", async () => {
    const world = await fieWorld(['2026-11-24', '2026-11-25'], ['2026-11-25']);
    lines.length = 0;
    const runtime = withLocalProcesses(robotsRuntime(), { fie: () => world.fie, now: () => NOW });
    const outcome = await runtime.start(job('get-fie-siltra', { 'input-certificate': holder.fingerprint }), events).outcome;
    expect(outcome).toMatchObject({ kind: 'result', result: 'Success', usageUnits: 1, summary: { fies: 1 } });
    expect(world.fieServer.documents).toHaveLength(1);
    expect(lines.map((line) => line.text)).toEqual(['Buscando los FIE del 25/11/2026 en SILTRA y FIER…', 'Se ha procesado un FIE.']);
  });

  it('get-fie-siltra with nothing for yesterday logs the §8 message; sync-fie-a3 with nothing pending says so', async () => {
    const world = await fieWorld(['2026-11-20'], []);
    lines.length = 0;
    const runtime = withLocalProcesses(robotsRuntime(), { fie: () => world.fie, now: () => NOW });
    const outcome = await runtime.start(job('sync-siltra-a3'), events).outcome;
    expect(outcome).toMatchObject({ kind: 'result', result: 'Success', usageUnits: 0 });
    expect(lines.map((line) => line.text)).toEqual([
      'Buscando los FIE del 25/11/2026 en SILTRA…',
      'No hemos encontrado ningún FIE en SILTRA. Sin resultados en el dia 25/11/2026',
      'Sincronizando con A3 los partes pendientes…',
      NOTHING_PENDING_MESSAGE,
    ]);
  });
});

describe('stopping a local process', () => {
  it('ends the wait for A3 at once and reports nothing for the entries', async () => {
    const world = await fieWorld([], ['2026-11-25'], 60_000);
    const runtime = withLocalProcesses(robotsRuntime(), { fie: () => world.fie, now: () => NOW });
    const running = runtime.start(job('sync-siltra-a3'), events);
    // A3 never answers: wait until the import is in its folder, then stop.
    for (let waited = 0; (await readdir(world.a3)).length === 0; waited += 20) {
      if (waited > 5000) throw new Error('no import was written');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(runtime.running()).toBe(1);
    const started = Date.now();
    running.stop('user');
    await expect(running.outcome).resolves.toEqual({ kind: 'stopped', by: 'user' });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(runtime.running()).toBe(0);
    expect(world.fieServer.requests.filter((request) => request.path === '/api/fie/a3-results')).toEqual([]);
    expect(world.fieServer.entries.every((entry) => entry.a3sync === 'pending')).toBe(true);
  });
});

describe('the autopilot panel', () => {
  it('says what a local process does beside where it runs', () => {
    const schedules = fakeScheduleServer();
    expect(robotsTaskFrom(schedules.add({ scheduledDate: '2026-11-26T06:30:00.000Z', localProcess: 'sync-fie-a3' })).description).toBe('En OFICINA-01 · Sincroniza con A3 los partes pendientes');
    expect(robotsTaskFrom(schedules.add({ scheduledDate: '2026-11-26T06:30:00.000Z', localProcess: 'sync-altas' })).description).toBe('En OFICINA-01 · Registra en Sistema RED las altas pendientes');
  });
});

describe('autopilot: a scheduled sync-siltra-a3 run end to end', () => {
  it('the slot is launched, leased by the run loop, runs the process here, and is reported and closed with its usage', async () => {
    const world = await fieWorld(['2026-11-25'], ['2026-11-25']);
    // A3 knows the first worker of yesterday's FIE; the others are refused.
    const [first] = decodeFie(sampleFierFile('2026-11-25', 3).bytes).entries;
    const importer: A3Importer = startA3Importer({ folder: world.a3, pollMs: 20, companies: [{ ccc: first!.fields[310]!.value, name: 'EMPRESA', workers: [first!.nif!] }] });
    cleanups.push(() => importer.close());

    // The server: schedules in memory (fake-schedule-server), runs through the device API over HTTP (fake-device-api).
    const devices: FakeDeviceApi = await startFakeDeviceApi();
    cleanups.push(() => devices.close());
    const schedules = fakeScheduleServer();
    schedules.finishAfterPolls = null;
    const api = deviceServerClient({ serverUrl: devices.url, deviceToken: devices.token, fetch });
    const client: DeviceServerClient = {
      ...api,
      schedules: schedules.client.schedules,
      checkSchedule: schedules.client.checkSchedule,
      advanceSchedule: schedules.client.advanceSchedule,
      removeSchedule: schedules.client.removeSchedule,
      async launchSlot(id, scheduledDate) {
        const known = new Set(schedules.runs.map((run) => run.runId));
        const slot = await schedules.client.launchSlot(id, scheduledDate);
        const schedule = schedules.schedule(id)!;
        // As the server does: the slot's run is queued for this machine, with the schedule's local process.
        if (!known.has(slot.runId)) devices.queue({ runId: slot.runId, flowId: schedule.browserFlow, inputs: schedule.flowInputs, localProcess: schedule.localProcess });
        return slot;
      },
      async slotRun(id, runId) {
        const finished = devices.finishes.get(runId)?.[0];
        if (finished) schedules.finish(runId, launchStatusOf(finished));
        return schedules.client.slotRun(id, runId);
      },
    };
    const link = fakeLink(client);
    const robots = robotsRuntime();
    const outputRoot = await mkdtemp(join(tmpdir(), 'resultados-'));
    cleanups.push(() => rm(outputRoot, { recursive: true, force: true }));
    const runner: DeviceRunner = createDeviceRunner({ link, runtime: withLocalProcesses(robots, { fie: () => world.fie, now: () => NOW }), outputRoot, emit: () => undefined, pollWaitSeconds: 1, lineFlushMs: 10 });
    cleanups.push(() => runner.shutdown(2000));
    await runner.start();

    const schedule = schedules.add({
      scheduledDate: '2026-11-26T06:30:00.000Z',
      browserFlowName: 'FIE de SILTRA a A3',
      localProcess: 'sync-siltra-a3',
      repeat: true,
      every: 1,
      interval: 'days',
      flowInputs: { 'input-certificate': holder.fingerprint },
    });
    const cron = manualCron();
    const dataFolder = await mkdtemp(join(tmpdir(), 'autopilot-'));
    const autopilot: AutopilotService = createAutopilot({ dataFolder, link, host: 'agent', now: () => NOW, log: () => undefined, followEveryMs: 20, cron: cron.cron, every: manualTimers().every });
    cleanups.push(() => rm(dataFolder, { recursive: true, force: true }), () => autopilot.stop());
    await autopilot.start();
    await cron.tick();

    // The run: one, leased by this PC, closed with the process's outcome (1 FIE + 1 entry synced = 2 units).
    expect(schedules.runs).toHaveLength(1);
    const runId = schedules.runs[0]!.runId;
    expect(robots.jobs).toEqual([]);
    expect(devices.finishes.get(runId)).toEqual([
      { kind: 'result', result: 'Success', usageUnits: 2, summary: { fies: 1, sincronizados: 1, errores: 2 }, outputFolder: expect.any(String), outputFileNames: [], outputs: [] },
    ]);
    const logged = (devices.reports.get(runId) ?? []).flatMap((report) => report.lines);
    expect(logged).toEqual(
      expect.arrayContaining([
        { level: 'info', text: 'Buscando los FIE del 25/11/2026 en SILTRA y FIER…' },
        { level: 'info', text: 'Se ha procesado un FIE.' },
        { level: 'warn', text: 'A3 ha importado 1 de 3 partes.' },
      ]),
    );
    // Error lines name the worker (the FIE list's last error per entry).
    expect(logged.filter((line) => line.level === 'error').map((line) => line.text)).toHaveLength(2);
    expect(logged.find((line) => line.level === 'error')!.text).toMatch(/^A3 no ha importado el parte de [0-9A-Z]{9}: /);

    // The server got the FIE and each entry's A3 state, tied to the run.
    expect(world.fieServer.documents).toHaveLength(1);
    expect(world.fieServer.entries.map((entry) => [entry.a3sync, entry.runId])).toEqual([
      ['synced', runId],
      ['error', runId],
      ['error', runId],
    ]);
    expect(importer.its).toHaveLength(1);
    // The repeating schedule moved on to tomorrow's slot.
    expect(schedules.schedule(schedule._id)!.scheduledDate).toBe('2026-11-27T06:30:00.000Z');
  });
});

function launchStatusOf(outcome: DeviceRunOutcome): number {
  if (outcome.kind === 'result') return outcome.result === 'Success' ? 200 : 500;
  return outcome.kind === 'stopped' ? 299 : 500;
}
