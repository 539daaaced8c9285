import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEVICE_TOKEN_INVALID_MESSAGE } from '#shared/api/devices.ts';
import type { RobotRunEvent } from '#shared/bridge/contract.ts';
import { createDeviceLink, type DeviceLinkService } from './connection.ts';
import { DeviceError } from './errors.ts';
import { jobFolderFor } from './run-files.ts';
import { createDeviceRunner, FLOW_MISMATCH_MESSAGE, type DeviceRunner, type DeviceRunnerOptions } from './run-loop.ts';
import { ALREADY_STARTED_MESSAGE, startFakeDeviceApi, type FakeDeviceApi } from './testing/fake-device-api.ts';
import { fakeRuntime } from './testing/fake-runtime.ts';
import { memoryTokenStore } from './testing/memory-token-store.ts';

let api: FakeDeviceApi;
let outputRoot: string;
const cleanups: (() => Promise<void>)[] = [];

beforeEach(async () => {
  api = await startFakeDeviceApi();
  outputRoot = await mkdtemp(join(tmpdir(), 'device-runs-'));
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await api.close();
  await rm(outputRoot, { recursive: true, force: true });
});

async function until<T>(read: () => T | undefined | false, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function linkedTo(server: { url: string; token: string }, store = memoryTokenStore({ serverUrl: server.url, deviceToken: api.token, machine: api.machine })): DeviceLinkService {
  return createDeviceLink({ store, fetch, requestTimeoutMs: 2000 });
}

async function startRunner(overrides: Partial<DeviceRunnerOptions> = {}) {
  const runtime = fakeRuntime();
  const events: RobotRunEvent[] = [];
  const link = overrides.link ?? linkedTo(api);
  const runner: DeviceRunner = createDeviceRunner({ link, runtime, outputRoot, emit: (event) => events.push(event), log: () => undefined, pollWaitSeconds: 1, ...overrides });
  await runner.start();
  cleanups.push(() => runner.shutdown(2000));
  return { runner, runtime, events, link };
}

describe('the device run loop', () => {
  it('leases a queued run, runs it in its folder, batches its lines to the server and finishes with its outcome', async () => {
    const { runner, runtime, events } = await startRunner();
    const run = api.queue({ inputs: { certificate: 'a'.repeat(64), ejercicio: 2026 } });
    const robot = await runtime.nextRobot();

    expect(robot.job).toEqual({
      runId: run.runId,
      flowId: 'descargar-justificantes',
      inputs: { certificate: 'a'.repeat(64), ejercicio: 2026 },
      files: {},
      timeLimitSeconds: 600,
      startedAt: run.startedAt,
      outputFolder: jobFolderFor(outputRoot, run),
    });
    expect(runner.running()).toBe(1);

    const sentAt = Date.now();
    robot.events.log('info', 'Entrando en la sede con el certificado');
    robot.events.progress(1, 3);
    robot.events.log('warn', 'Un justificante no está disponible');
    await until(() => api.reports.get(run.runId)?.length);
    // Both lines and the progress went in one report, well before the 10 s heartbeat.
    expect(Date.now() - sentAt).toBeLessThan(1500);
    expect(api.reports.get(run.runId)?.[0]).toEqual({
      lines: [
        { level: 'info', text: 'Entrando en la sede con el certificado' },
        { level: 'warn', text: 'Un justificante no está disponible' },
      ],
      successfulIterations: 1,
      totalIterations: 3,
    });

    await mkdir(robot.job.outputFolder, { recursive: true });
    await writeFile(join(robot.job.outputFolder, 'justificante-1.pdf'), '%PDF-1.4 uno');
    robot.end({ kind: 'result', result: 'Success', usageUnits: 3, outputFolder: robot.job.outputFolder, outputFileNames: ['justificante-1.pdf'] });
    await until(() => api.finishes.get(run.runId));

    expect(api.finishes.get(run.runId)).toEqual([
      { kind: 'result', result: 'Success', usageUnits: 3, outputFolder: robot.job.outputFolder, outputFileNames: ['justificante-1.pdf'], outputs: [] },
    ]);
    expect(api.state(run.runId)).toBe('closed');
    await until(() => events.some((event) => event.type === 'finished'));
    expect(events.map((event) => event.type)).toEqual(['log', 'progress', 'log', 'finished']);
    expect(events.at(-1)).toEqual({ type: 'finished', runId: run.runId, outcome: 'result', outputFolder: robot.job.outputFolder, outputFileNames: ['justificante-1.pdf'] });
    expect(runner.running()).toBe(0);
    expect(api.badBodies).toEqual([]);
  });

  it('sends the output files (base64) only when the run asks for them', async () => {
    const { runtime } = await startRunner();
    const run = api.queue({ sendOutputToServer: true });
    const robot = await runtime.nextRobot();
    const pdf = Buffer.from('%PDF-1.4\n\u00e1 justificante');
    await mkdir(robot.job.outputFolder, { recursive: true });
    await writeFile(join(robot.job.outputFolder, 'justificante.pdf'), pdf);
    robot.end({ kind: 'result', result: 'Success', usageUnits: 1, outputFolder: robot.job.outputFolder, outputFileNames: ['justificante.pdf'] });

    const [finish] = await until(() => api.finishes.get(run.runId));
    expect(finish).toMatchObject({ kind: 'result', outputs: [{ name: 'justificante.pdf', base64: pdf.toString('base64') }] });
  });

  it('reports at least every leaseMs/3 even when the robot is quiet, renewing the lease', async () => {
    const { runtime } = await startRunner();
    const run = api.queue({ leaseMs: 600 });
    const robot = await runtime.nextRobot();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // 200 ms apart over 1 s: about five reports; timers under load may slip one or two.
    expect(api.reports.get(run.runId)?.length ?? 0).toBeGreaterThanOrEqual(3);
    robot.end({ kind: 'timeout' });
    await until(() => api.finishes.get(run.runId));
    expect(api.finishes.get(run.runId)).toEqual([{ kind: 'timeout' }]);
  });

  it('relays the stop the server answers, once, and finishes as stopped by the user', async () => {
    const { runtime } = await startRunner();
    const run = api.queue({ leaseMs: 300 });
    const robot = await runtime.nextRobot();
    api.requestStop(run.runId);
    await until(() => api.finishes.get(run.runId));
    expect(robot.stops).toEqual(['user']);
    expect(api.finishes.get(run.runId)).toEqual([{ kind: 'stopped', by: 'user' }]);
  });

  it('stops the robot and finishes nothing once the lease is lost (409)', async () => {
    const { runtime, runner } = await startRunner();
    const run = api.queue({ leaseMs: 300 });
    const robot = await runtime.nextRobot();
    api.loseLease(run.runId);
    await until(() => robot.stops.length > 0);
    expect(robot.stops).toEqual(['device']);
    await until(() => runner.running() === 0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(api.finishes.get(run.runId)).toBeUndefined();
    expect(api.calls.filter((call) => call.path.endsWith('/finish'))).toEqual([]);
  });

  it('keeps the lines of a report the server did not take, and sends them with the next one', async () => {
    const { runtime } = await startRunner();
    const run = api.queue({ leaseMs: 300 });
    const robot = await runtime.nextRobot();
    api.failNext(1, 503);
    robot.events.log('info', 'Primera línea');
    await until(() => api.reports.get(run.runId)?.length);
    expect(api.reports.get(run.runId)?.[0]?.lines).toEqual([{ level: 'info', text: 'Primera línea' }]);
  });

  it('backs off 1 s, 2 s, 4 s... up to 30 s while the server cannot be reached, says so, and stops on unlink', async () => {
    await api.close();
    const waits: number[] = [];
    let releaseSleeps: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      releaseSleeps = resolve;
    });
    const link = linkedTo(api);
    await startRunner({
      link,
      sleep: async (ms, signal) => {
        waits.push(ms);
        if (waits.length >= 8) await Promise.race([held, new Promise((resolve) => signal.addEventListener('abort', resolve))]);
      },
    });
    await until(() => waits.length >= 8);
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
    expect(await link.status()).toMatchObject({ linked: true, problem: `No se puede contactar con el servidor ${api.url}. Se vuelve a intentar en unos segundos.` });

    await link.unlink();
    releaseSleeps();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(waits).toHaveLength(8);
    expect(await link.status()).toEqual({ linked: false, serverUrl: null, machine: null, problem: null });
  });

  it('stops polling when unlinked, and starts again when linked', async () => {
    const { link, runtime } = await startRunner();
    await until(() => api.calls.some((call) => call.path.endsWith('/next')));
    await link.unlink();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const callsAfterUnlink = api.calls.length;
    api.queue();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(api.calls.length).toBe(callsAfterUnlink);
    expect(runtime.robots).toEqual([]);

    await link.link(api.url, api.token);
    const robot = await runtime.nextRobot();
    expect(robot.job.flowId).toBe('descargar-justificantes');
  });

  it('forgets a revoked token (401): polling stops and the status says why', async () => {
    const store = memoryTokenStore({ serverUrl: api.url, deviceToken: api.token, machine: api.machine });
    const link = linkedTo(api, store);
    api.revoke();
    await startRunner({ link });
    await until(() => link.current() === null);
    expect(await link.status()).toEqual({ linked: false, serverUrl: api.url, machine: api.machine, problem: DEVICE_TOKEN_INVALID_MESSAGE });
    expect(store.saved()).toBeNull();
    const calls = api.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(api.calls.length).toBe(calls);
  });

  it('takes no more runs than its limit at once', async () => {
    const { runtime, runner } = await startRunner({ maxConcurrentRuns: 1 });
    const first = api.queue();
    const second = api.queue();
    const robot = await runtime.nextRobot();
    expect(robot.runId).toBe(first.runId);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(api.state(second.runId)).toBe('queued');
    expect(runner.running()).toBe(1);
    robot.end({ kind: 'failed', message: 'La sede no responde' });
    const next = await runtime.nextRobot();
    expect(next.runId).toBe(second.runId);
    expect(await until(() => api.finishes.get(first.runId))).toEqual([{ kind: 'failed', message: 'La sede no responde' }]);
  });

  it('on shutdown stops every robot (by the device) and finishes their runs before resolving', async () => {
    const { runtime, runner } = await startRunner();
    const run = api.queue();
    const robot = await runtime.nextRobot();
    await runner.shutdown(3000);
    expect(robot.stops).toEqual(['device']);
    expect(api.finishes.get(run.runId)).toEqual([{ kind: 'stopped', by: 'device' }]);
  });
});

describe('LaunchFlow through the runner', () => {
  it('claims the run of a launch from this PC and starts it', async () => {
    const { runner, runtime } = await startRunner({ link: linkedTo(api), pollWaitSeconds: 0, sleep: async () => undefined, maxConcurrentRuns: 0 });
    const run = api.queue({ remote: false });
    await expect(runner.launch(run.executionToken, run.flowId)).resolves.toEqual({ runId: run.runId, outputFolder: jobFolderFor(outputRoot, run) });
    const robot = await runtime.nextRobot();
    expect(robot.runId).toBe(run.runId);
    expect(api.calls.filter((call) => call.path.endsWith('/claim'))).toHaveLength(1);
  });

  it('answers with the run the poll loop of this PC leased first (the claim gets 409)', async () => {
    const { runner, runtime } = await startRunner();
    const run = api.queue({ remote: false });
    await runtime.nextRobot();
    await expect(runner.launch(run.executionToken, run.flowId)).resolves.toEqual({ runId: run.runId, outputFolder: jobFolderFor(outputRoot, run) });
    expect(runtime.robots).toHaveLength(1);
  });

  it('does nothing with a run another device holds: the conflict comes back in Spanish', async () => {
    const { runner, runtime } = await startRunner({ maxConcurrentRuns: 0, claimRaceMs: 100 });
    const run = api.queue();
    api.loseLease(run.runId);
    await expect(runner.launch(run.executionToken, run.flowId)).rejects.toMatchObject({ code: 'FAILED', message: ALREADY_STARTED_MESSAGE });
    expect(runtime.robots).toEqual([]);
  });

  it('refuses a run of another flow than asked, and closes it at once', async () => {
    const { runner, runtime } = await startRunner({ maxConcurrentRuns: 0 });
    const run = api.queue({ flowId: 'otro-robot' });
    const launching = runner.launch(run.executionToken, 'descargar-justificantes');
    await expect(launching).rejects.toBeInstanceOf(DeviceError);
    await expect(launching).rejects.toMatchObject({ code: 'BAD_ARGS', message: FLOW_MISMATCH_MESSAGE });
    expect(runtime.robots).toEqual([]);
    expect(api.finishes.get(run.runId)).toEqual([{ kind: 'failed', message: FLOW_MISMATCH_MESSAGE }]);
  });

  it('is NOT_LINKED without a token', async () => {
    const { runner } = await startRunner({ link: createDeviceLink({ store: memoryTokenStore(), fetch }) });
    await expect(runner.launch('abc', 'descargar-justificantes')).rejects.toMatchObject({ code: 'NOT_LINKED' });
  });
});

describe('a run whose flow takes files (FileUpload inputs)', () => {
  const PDF = Buffer.from('%PDF-1.4\n\u00e1 justificante de marzo');
  const CSV = Buffer.from('NIF;Importe\n12345678Z;100,00\n');

  it('downloads each input’s files before starting the robot, which gets their bytes by input key and the other inputs alone', async () => {
    const { runtime } = await startRunner();
    const pdf = api.upload('justificante marzo.pdf', PDF);
    const csv = api.upload('importes.csv', CSV);
    const run = api.queue({ inputs: { documentos: [pdf, csv], anexo: [], nota: 'urgente' }, fileInputs: ['documentos', 'anexo'] });
    const robot = await runtime.nextRobot();

    expect(robot.job.inputs).toEqual({ nota: 'urgente' });
    expect(Object.keys(robot.job.files ?? {})).toEqual(['documentos', 'anexo']);
    const documentos = robot.job.files?.['documentos'] ?? [];
    expect(documentos.map((file) => file.name)).toEqual(['justificante marzo.pdf', 'importes.csv']);
    expect(Buffer.from(documentos[0]?.data ?? []).equals(PDF)).toBe(true);
    expect(Buffer.from(documentos[1]?.data ?? []).equals(CSV)).toBe(true);
    expect(robot.job.files?.['anexo']).toEqual([]);
    const downloads = api.calls.filter((call) => call.path.includes('/files/')).map((call) => call.path);
    expect(downloads).toEqual([`/api/device/runs/${run.runId}/files/${pdf.uploadId}`, `/api/device/runs/${run.runId}/files/${csv.uploadId}`]);
  });

  it('tries a cut download again, and fails the run in Spanish, naming the file, when it keeps arriving short; the robot never starts', async () => {
    const waits: number[] = [];
    const { runtime, events } = await startRunner({ sleep: async (ms) => void waits.push(ms) });
    const once = api.upload('justificante.pdf', PDF);
    api.cutUpload(once.uploadId, 1);
    api.queue({ inputs: { documentos: [once] }, fileInputs: ['documentos'] });
    const robot = await runtime.nextRobot();
    expect(Buffer.from(robot.job.files?.['documentos']?.[0]?.data ?? []).equals(PDF)).toBe(true);
    expect(waits).toEqual([1000]);

    const broken = api.upload('importes.csv', CSV);
    api.cutUpload(broken.uploadId, 5);
    const run = api.queue({ inputs: { documentos: [broken] }, fileInputs: ['documentos'] });
    const [finish] = await until(() => api.finishes.get(run.runId));
    expect(finish).toEqual({
      kind: 'failed',
      message: `No se han podido descargar en este equipo los archivos del robot: «importes.csv»: La conexión se ha cortado antes de recibir el archivo entero (${CSV.length} bytes).`,
    });
    expect(waits).toEqual([1000, 1000, 2000]);
    expect(runtime.robots).toHaveLength(1);
    await until(() => events.some((event) => event.type === 'finished' && event.runId === run.runId));
  });

  it('fails the run when the server does not know a file of it (404), with the server’s reason', async () => {
    const { runtime } = await startRunner();
    const missing = { uploadId: '0d9c6a0e-4c1b-4f0a-9a57-7f3c2b1e0a11', name: 'perdido.pdf' };
    const run = api.queue({ inputs: { documentos: [missing] }, fileInputs: ['documentos'] });
    const [finish] = await until(() => api.finishes.get(run.runId));
    expect(finish).toEqual({ kind: 'failed', message: 'No se han podido descargar en este equipo los archivos del robot: «perdido.pdf»: No se ha encontrado este archivo de la ejecución' });
    expect(runtime.robots).toEqual([]);
  });

  it('starts nothing and finishes nothing when the lease is lost during a download (409)', async () => {
    const { runtime, runner } = await startRunner();
    const pdf = api.upload('justificante.pdf', PDF);
    const release = api.holdUpload(pdf.uploadId);
    const run = api.queue({ inputs: { documentos: [pdf] }, fileInputs: ['documentos'] });
    await until(() => api.calls.some((call) => call.path.includes('/files/')));
    api.loseLease(run.runId);
    release();
    await until(() => runner.running() === 0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(runtime.robots).toEqual([]);
    expect(api.finishes.get(run.runId)).toBeUndefined();
    expect(api.calls.filter((call) => call.path.endsWith('/finish'))).toEqual([]);
  });

  it('a stop during the downloads ends the run as stopped, and the robot never starts', async () => {
    const { runtime, runner } = await startRunner();
    const pdf = api.upload('justificante.pdf', PDF);
    const release = api.holdUpload(pdf.uploadId);
    const run = api.queue({ inputs: { documentos: [pdf] }, fileInputs: ['documentos'] });
    await until(() => api.calls.some((call) => call.path.includes('/files/')));
    const stoppingAt = Date.now();
    await runner.shutdown(3000);
    // The download is dropped at once, not waited for.
    expect(Date.now() - stoppingAt).toBeLessThan(1500);
    release();
    expect(api.finishes.get(run.runId)).toEqual([{ kind: 'stopped', by: 'device' }]);
    expect(runtime.robots).toEqual([]);
  });
});
