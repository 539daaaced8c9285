/**
 * The desktop's DEHÚ calls against the real server (server/index.ts spawned on a fresh SQLite folder, as
 * main/fie/real-server.test.ts does; main/ cannot import the server): a linked PC with two synced
 * certificates, one watched by the firm, updates through a fake LEMA; the screen's list shows what it
 * found; opening one stores its documents and the comparecencia.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationDetailSchema, notificationsPageSchema, watchedCertificatesResponseSchema } from '#shared/api/notifications.ts';
import type { LocalCertificate } from '#shared/certificates/certificate.ts';
import { certificateNotHereMessage, createDehuDesktop } from './desktop.ts';
import { storedCertificate } from './testing/desktop-context.ts';
import { fakeLema, lemaEnvio, lemaRealizada, type FakeLema } from './testing/fake-lema.ts';
import type { DehuDesktop } from './types.ts';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const MACHINE_HASH = 'd'.repeat(64);
let server: ChildProcess;
let output = '';
let baseUrl: string;
let cookie: string;
let dataDir: string;
let machineId: string;
let lema: FakeLema;
let dehu: DehuDesktop;

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

const asSession = (path: string, init: RequestInit = {}) =>
  fetch(`${baseUrl}${path}`, { ...init, headers: { 'content-type': 'application/json', origin: baseUrl, cookie, ...(init.headers as Record<string, string> | undefined) } });

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'aa-dehu-real-server-'));
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
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

  const signup = await fetch(`${baseUrl}/api/users`, { method: 'POST', headers: { 'content-type': 'application/json', origin: baseUrl }, body: JSON.stringify({ name: 'Ana Pérez', email: 'ana@asesoria.es', password: 'Secreta-Nube7' }) });
  expect(signup.status, await signup.clone().text()).toBe(201);
  cookie = signup.headers.getSetCookie().map((each) => each.split(';')[0]).join('; ');
  const linked = await asSession('/api/machines/link', { method: 'POST', body: JSON.stringify({ machineHashCode: MACHINE_HASH, machineName: 'PC del despacho' }) });
  expect(linked.status, await linked.clone().text()).toBeLessThan(300);
  const device = (await linked.json()) as { deviceToken: string; machine: { _id: string; name: string } };
  machineId = device.machine._id;

  // The PC syncs its two certificates; the firm watches A only.
  const store: LocalCertificate[] = [storedCertificate(A, 'EMPRESA A SL', 'B12345678'), storedCertificate(B, 'EMPRESA B SL', 'B87654321')];
  const metadata = store.map(({ location: _location, holderNif: _holderNif, ...rest }) => rest);
  const synced = await asSession('/api/certificates?machineName=PC%20del%20despacho', { method: 'POST', body: JSON.stringify({ machineHashCode: MACHINE_HASH, digitalCertificates: metadata }) });
  expect(synced.status, await synced.clone().text()).toBeLessThan(300);
  const watched = await asSession('/api/notifications/certificates', { method: 'PUT', body: JSON.stringify({ certificates: [{ machineId, fingerprint: A }] }) });
  expect(watched.status, await watched.clone().text()).toBe(200);

  lema = fakeLema({
    [A]: { pendientes: [lemaEnvio('A-PEND-1'), lemaEnvio('A-PEND-2', { tipoEnvio: 1 })], realizadas: [lemaRealizada('A-REAL-1')] },
    [B]: { pendientes: [lemaEnvio('B-PEND-1', { titular: { nombre: 'EMPRESA B SL', nif: 'B87654321' } })], realizadas: [] },
  });
  const here = new Set(store.map((certificate) => certificate.fingerprint));
  dehu = createDehuDesktop({
    link: { ready: async () => undefined, current: () => ({ serverUrl: baseUrl, deviceToken: device.deviceToken, machine: device.machine }) },
    certificates: {
      list: async () => ({ certificates: store, problems: [], folder: null }),
      clientCertificate: async (fingerprint) => {
        if (!here.has(fingerprint)) throw new Error('El certificado elegido no está en este dispositivo');
        return { pfx: Buffer.from(fingerprint, 'utf8'), passphrase: 'clave' };
      },
    },
    settings: async () => ({ lemaUrl: 'https://localhost:8445/ws/v2/lema', realizadasUrl: 'https://localhost:8445/ws/v1/realizadas', ca: undefined, successCodes: undefined, servername: undefined }),
    lemaClient: lema.factory,
    fetch,
    now: () => new Date(),
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
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('the desktop DEHÚ calls against the real server', () => {
  it('updates the watched certificate, then one chosen by the autopilot; the list and the configuration show them', async () => {
    expect((await dehu.update()).certificates).toEqual([{ fingerprint: A, commonName: 'EMPRESA A SL', state: 'done', found: 3, added: 3, message: null }]);
    const pending = notificationsPageSchema.parse(await (await asSession('/api/notifications?view=pendientes')).json());
    expect(pending.items.map((item) => item.identificador).sort()).toEqual(['A-PEND-1', 'A-PEND-2']);
    const all = notificationsPageSchema.parse(await (await asSession('/api/notifications?view=todas')).json());
    expect(all.total).toBe(3);

    // Again: nothing new.
    expect((await dehu.update()).certificates[0]).toMatchObject({ state: 'done', found: 3, added: 0 });

    // B is on this PC but not watched: listed, it is read and the server watches it from now on.
    expect((await dehu.update({ certificates: [B] })).certificates).toEqual([{ fingerprint: B, commonName: 'EMPRESA B SL', state: 'done', found: 1, added: 1, message: null }]);
    // One neither here nor synced by this machine: its own error (the server refuses its status), the others unharmed.
    const C = 'c'.repeat(64);
    expect((await dehu.update({ certificates: [C, A] })).certificates.map((each) => [each.fingerprint, each.state, each.message])).toEqual([
      [C, 'error', certificateNotHereMessage(C.slice(0, 12))],
      [A, 'done', null],
    ]);
    const config = watchedCertificatesResponseSchema.parse(await (await asSession('/api/notifications/certificates')).json());
    expect(config.items.map((item) => [item.commonName, item.lastUpdate?.state, item.lastUpdate?.found])).toEqual([
      ['EMPRESA A SL', 'done', 3],
      ['EMPRESA B SL', 'done', 1],
    ]);
  }, 60_000);

  it('opens a pending notification once: its documents and the comparecencia are on the server', async () => {
    const target = await findByIdentificador('A-PEND-1');
    const opened = await dehu.open(target._id);
    expect(opened.documents.map((document) => document.kind)).toEqual(['documento', 'anexo', 'anexo', 'acuse']);
    const detail = notificationDetailSchema.parse(await (await asSession(`/api/notifications/${target._id}`)).json());
    expect(detail).toMatchObject({ estado: 'aceptada', csvResguardo: 'CSV-123', receptor: { nombre: 'EMPRESA A SL', nif: 'B12345678' } });
    expect(detail.documents.map((document) => document.name).sort()).toEqual(['acuse.pdf', 'anexo-1.pdf', 'anexo-2.pdf', 'notificacion.pdf']);
    expect(lema.calls.filter((call) => call.startsWith('peticionAcceso'))).toHaveLength(1);

    // Opened: asking again never calls PeticionAcceso a second time; it answers the stored documents.
    const again = await dehu.open(target._id);
    expect(again.documents.map((document) => document.kind).sort()).toEqual(['acuse', 'anexo', 'anexo', 'documento']);
    expect(lema.calls.filter((call) => call.startsWith('peticionAcceso'))).toHaveLength(1);
  }, 60_000);
});

async function findByIdentificador(identificador: string) {
  const all = notificationsPageSchema.parse(await (await asSession('/api/notifications?view=todas&pageSize=100')).json());
  const found = all.items.find((item) => item.identificador === identificador);
  if (!found) throw new Error(`${identificador} is not in the list`);
  return found;
}
