/**
 * The desktop's FIE calls against the real server (server/index.ts run as its own process on a fresh
 * SQLite folder, as a firm would run it): a linked device uploads the FIE the SILTRA folder holds, asks
 * for its pending entries' A3 records, imports them through the A3 importer stand-in and reports each
 * entry's state, which the FIE list then shows. main/ cannot import the server, so it is spawned.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieListResponseSchema } from '#shared/api/fie.ts';
import { decodeFie } from '#shared/fie/decode.ts';
import { startA3Importer } from '../../standins/a3-importer/importer.ts';
import { sampleFierFile } from '../../standins/fier/files.ts';
import { createAutopilot } from '../autopilot/index.ts';
import { manualCron, manualTimers } from '../autopilot/testing/fake-schedule-server.ts';
import { createDeviceLink } from '../device/connection.ts';
import { createDeviceRunner } from '../device/run-loop.ts';
import { memoryTokenStore } from '../device/testing/memory-token-store.ts';
import type { RobotRuntime } from '../robots/types.ts';
import { madridYesterday } from '../siltra/dates.ts';
import { createFieDesktop, type FieDesktop } from './desktop.ts';
import { withLocalProcesses } from './local-processes.ts';

const DAY = '2026-11-25';
let server: ChildProcess;
let output = '';
let baseUrl: string;
let cookie: string;
let dataDir: string;
let siltra: string;
let a3: string;
let fie: FieDesktop;
let device: { deviceToken: string; machine: { _id: string; name: string } };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'aa-real-server-'));
  siltra = await mkdtemp(join(tmpdir(), 'siltra-'));
  a3 = await mkdtemp(join(tmpdir(), 'a3-'));
  await writeFile(join(siltra, 'FIE_20261125.txt'), sampleFierFile(DAY, 3).bytes);
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    // Its own SQLite folder, whatever database the environment names.
    env: { ...process.env, DATABASE_URL: '', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, PUBLIC_URL: baseUrl, NODE_ENV: 'test', SMTP_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 90_000;
  for (;;) {
    const up = await fetch(`${baseUrl}/api/health`).then((response) => response.ok, () => false);
    if (up) break;
    if (Date.now() > deadline || server.exitCode !== null) throw new Error(`The server did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  // A signed-in member links this PC: the device token is what the desktop keeps.
  const signup = await fetch(`${baseUrl}/api/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Ana Pérez', email: 'ana@asesoria.es', password: 'Secreta-Nube7' }) });
  expect(signup.status, await signup.clone().text()).toBe(201);
  cookie = signup.headers.getSetCookie().map((each) => each.split(';')[0]).join('; ');
  const linked = await fetch(`${baseUrl}/api/machines/link`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ machineHashCode: 'b'.repeat(64), machineName: 'PC del despacho' }) });
  expect(linked.status, await linked.clone().text()).toBeLessThan(300);
  device = (await linked.json()) as { deviceToken: string; machine: { _id: string; name: string } };
  const { deviceToken, machine } = device;
  fie = createFieDesktop({
    link: { ready: async () => undefined, current: () => ({ serverUrl: baseUrl, deviceToken, machine }) },
    certificates: { clientCertificate: async () => Promise.reject(new Error('FIER is not used here')) },
    settings: async () => ({ siltraFolder: siltra, fierUrl: null, fierCa: undefined, a3ImportDir: a3, a3AnswerTimeoutMs: 10_000 }),
    fetch,
    now: () => new Date('2026-11-26T07:00:00Z'),
  });
}, 120_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    await new Promise<void>((resolve) => {
      server.once('exit', () => resolve());
      server.kill('SIGTERM');
      setTimeout(() => server.kill('SIGKILL'), 5000).unref();
    });
  }
  await Promise.all([dataDir, siltra, a3].filter(Boolean).map((folder) => rm(folder, { recursive: true, force: true })));
});

describe('the desktop FIE calls against the real server', () => {
  it('uploads from the SILTRA folder, then syncs the pending entries into A3 and the list shows their states', async () => {
    const fetched = await fie.fetchFromSiltra({ certificate: null, from: DAY, to: DAY, source: 'folder' });
    expect(fetched).toMatchObject({ found: 1, noResults: null, upload: { processed: 1, failed: 0, alreadyAdded: 0 } });
    // The same file again: the server knows it by its content.
    expect((await fie.fetchFromSiltra({ certificate: null, from: DAY, to: DAY, source: 'folder' })).upload).toMatchObject({ processed: 0, alreadyAdded: 1 });

    const [first] = decodeFie(sampleFierFile(DAY, 3).bytes).entries;
    const importer = startA3Importer({ folder: a3, pollMs: 20, companies: [{ ccc: first!.fields[310]!.value, name: 'EMPRESA', workers: [first!.nif!] }] });
    try {
      const synced = await fie.syncPending();
      expect(synced).not.toBeNull();
      expect(synced!.synced).toBe(1);
      expect(synced!.results.length).toBeGreaterThanOrEqual(2);
    } finally {
      await importer.close();
    }

    const list = fieListResponseSchema.parse(await (await fetch(`${baseUrl}/api/fie`, { headers: { cookie } })).json());
    const entries = list.items.flatMap((document) => document.entries);
    const byNif = entries.find((entry) => entry.nif === first!.nif);
    expect(byNif).toMatchObject({ a3sync: 'synced' });
    expect(entries.filter((entry) => entry.a3sync === 'error').length).toBe(entries.filter((entry) => !entry.disabled).length - 1);
    // Nothing is pending any more.
    expect(await fie.syncPending()).toBeNull();
  }, 60_000);

  it('a scheduled sync-siltra-a3 runs unattended through the autopilot and is in the history, charged by its usage', async () => {
    // Due a minute from now; the autopilot's clock is just past it. 'Yesterday' is the day before that.
    const scheduledDate = new Date(Math.ceil((Date.now() + 60_000) / 1000) * 1000).toISOString();
    const now = () => new Date(Date.parse(scheduledDate) + 1000);
    const yesterday = madridYesterday(now());
    const folder = await mkdtemp(join(tmpdir(), 'siltra-ayer-'));
    const a3Folder = await mkdtemp(join(tmpdir(), 'a3-ayer-'));
    const file = sampleFierFile(yesterday, 2, 900);
    await writeFile(join(folder, file.nombre), file.bytes);
    const [first] = decodeFie(file.bytes).entries;
    const importer = startA3Importer({ folder: a3Folder, pollMs: 20, companies: [{ ccc: first!.fields[310]!.value, name: 'EMPRESA', workers: [first!.nif!] }] });

    const created = await fetch(`${baseUrl}/api/browserflow/schedule/descargar-justificantes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ scheduledDate, machine: device.machine._id, localProcess: 'sync-siltra-a3', flowInputs: { certificado: 'e'.repeat(64), desde: '2026-11-01', hasta: '2026-11-25' } }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const schedule = (await created.json()) as { _id: string };

    // This PC as the agent has it: the real device link, the run loop with the local processes, the autopilot.
    const link = createDeviceLink({ store: memoryTokenStore(), fetch });
    await link.ready();
    await link.link(baseUrl, device.deviceToken);
    const robots: RobotRuntime & { started: number } = {
      started: 0,
      start(job) {
        robots.started += 1;
        return { runId: job.runId, outcome: Promise.resolve({ kind: 'failed', message: 'no robot should run here' }), stop: () => undefined };
      },
      running: () => 0,
    };
    const here = createFieDesktop({
      link,
      certificates: { clientCertificate: async () => Promise.reject(new Error('FIER is not used here')) },
      settings: async () => ({ siltraFolder: folder, fierUrl: null, fierCa: undefined, a3ImportDir: a3Folder, a3AnswerTimeoutMs: 10_000 }),
      fetch,
      now,
    });
    const outputRoot = await mkdtemp(join(tmpdir(), 'resultados-'));
    const runner = createDeviceRunner({ link, runtime: withLocalProcesses(robots, { fie: () => here, now }), outputRoot, emit: () => undefined, pollWaitSeconds: 1, lineFlushMs: 20 });
    const cron = manualCron();
    const dataFolder = await mkdtemp(join(tmpdir(), 'autopilot-'));
    const autopilot = createAutopilot({ dataFolder, link, host: 'agent', now, log: () => undefined, followEveryMs: 50, cron: cron.cron, every: manualTimers().every });
    try {
      await runner.start();
      await autopilot.start();
      await cron.tick();
    } finally {
      await autopilot.stop();
      await runner.shutdown(5000);
      await importer.close();
      await Promise.all([folder, a3Folder, outputRoot, dataFolder].map((each) => rm(each, { recursive: true, force: true })));
    }

    expect(robots.started).toBe(0);
    const history = (await (await fetch(`${baseUrl}/api/flowlog?browserFlowSchedule=${schedule._id}`, { headers: { cookie } })).json()) as { total: number; items: { result: string; scheduled: boolean; usageHistory: unknown[] }[] };
    expect(history.total).toBe(1);
    // 1 FIE uploaded + 1 entry A3 took = 2 units at the flow's ratio of 1.
    expect(history.items[0]).toMatchObject({ result: 'Success', scheduled: true, usageHistory: [{ usageUnits: 2, usageRatio: 1 }] });
    // Yesterday's FIE is stored and A3 took the worker it knows.
    const list = fieListResponseSchema.parse(await (await fetch(`${baseUrl}/api/fie`, { headers: { cookie } })).json());
    const stored = list.items.find((document) => document.fileName === file.nombre);
    expect(stored?.entries.find((entry) => entry.nif === first!.nif)).toMatchObject({ a3sync: 'synced' });
    // The one-off schedule ran: it is gone.
    const left = await fetch(`${baseUrl}/api/device/schedules/${schedule._id}`, { headers: { authorization: `Device ${device.deviceToken}` } });
    expect(((await left.json()) as { exists: boolean }).exists).toBe(false);
  }, 90_000);
});
