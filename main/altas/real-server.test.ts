/**
 * The desktop's altas calls against the real server (server/index.ts run as its own process on a fresh
 * SQLite folder, as a firm would run it): an advisor records a worker's alta, the linked PC asks what is
 * pending with its device token, registers it in RED (a fake registrar: the real one needs a browser and
 * RED Online) and imports it into A3 through the importer stand-in, and the server's submission then shows
 * both steps. main/ cannot import the server, so it is spawned.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { altasPaths, submissionsResponseSchema, type ClientCompany, type Submission } from '#shared/api/altas.ts';
import { startA3Importer } from '../../standins/a3-importer/importer.ts';
import { testAltasDesktop } from './testing/desktop-context.ts';
import { fakeRegistrar } from './testing/fake-registrar.ts';

const CCC = '28123456742';
const GROUP_KEY = '3f1c0a9e-1b2c-4d5e-8f90-1234567890ab';
let server: ChildProcess;
let output = '';
let baseUrl: string;
let cookie: string;
let dataDir: string;
let a3: string;
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

async function advisor<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, { method, headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
  expect(response.status, `${method} ${path}: ${await response.clone().text()}`).toBeLessThan(300);
  return (await response.json()) as T;
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'aa-altas-real-'));
  a3 = await mkdtemp(join(tmpdir(), 'a3-altas-real-'));
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
  const signup = await fetch(`${baseUrl}/api/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Ana Pérez', email: 'ana@asesoria.es', password: 'Secreta-Nube7' }) });
  expect(signup.status, await signup.clone().text()).toBe(201);
  cookie = signup.headers.getSetCookie().map((each) => each.split(';')[0]).join('; ');
  device = await advisor('POST', '/api/machines/link', { machineHashCode: 'c'.repeat(64), machineName: 'PC del despacho' });
}, 120_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    await new Promise<void>((resolve) => {
      server.once('exit', () => resolve());
      server.kill('SIGTERM');
      setTimeout(() => server.kill('SIGKILL'), 5000).unref();
    });
  }
  await Promise.all([dataDir, a3].filter(Boolean).map((folder) => rm(folder, { recursive: true, force: true })));
});

describe('the desktop altas calls against the real server', () => {
  it('an alta recorded by the advisor goes to RED and then to A3, and the server shows both steps', async () => {
    const company = await advisor<ClientCompany>('POST', altasPaths.createClient, { name: 'Hostelería Levante S.L.', email: 'rrhh@levante.es', cccList: [{ label: 'Centro', key: CCC }] });
    await advisor('POST', altasPaths.groups.replace(':id', company._id).replace(':field', 'groups'), {
      [GROUP_KEY]: { text: 'Camarero/a', fieldsValues: { Jornada: 'parcial', 'Tipo Contrato*': '200', 'Coeficiente Parcialidad': '500', 'Grupo Cotización': '07', 'Convenio Colectivo': '46000805011981', 'CN Ocupación': '5120' } },
    });
    const alta = await advisor<Submission>('POST', altasPaths.submissions, {
      companyId: company._id,
      groupKey: GROUP_KEY,
      fieldsValues: { nombre: 'Lucía', PrimerApellido: 'García', SegundoApellido: 'Ruiz', 'Tipo de documento': '1', NIF: '12345678Z', NAF: '281234567840', email: 'lucia@example.com', Sexo: '2', 'Fecha Nacimiento': '1990-05-31', 'Fecha Alta': '2026-12-01', CCC },
    });

    const registrar = fakeRegistrar();
    const altas = testAltasDesktop({ url: baseUrl, deviceToken: device.deviceToken }, registrar, a3);
    expect(await altas.pending()).toEqual({ red: [{ _id: alta._id, title: alta.title }], a3: [] });

    const red = await altas.syncToRed([alta._id], 'ab'.repeat(32));
    expect(red).toMatchObject({ registered: 1, failed: 0, results: [{ submissionId: alta._id, state: 'registered' }] });
    expect(registrar.calls[0]?.submissionIds).toEqual([alta._id]);
    expect(await altas.pending()).toEqual({ red: [], a3: [{ _id: alta._id, title: alta.title }] });

    const importer = startA3Importer({ folder: a3, pollMs: 20, companies: [] });
    try {
      expect(await altas.syncToA3([alta._id])).toMatchObject({ synced: 1, failed: 0 });
      expect(importer.altas).toMatchObject([{ ccc: CCC, nif: '12345678Z', naf: '281234567840', start: '01/12/2026' }]);
    } finally {
      await importer.close();
    }
    expect(await altas.pending()).toEqual({ red: [], a3: [] });
    const { items } = submissionsResponseSchema.parse(await advisor('GET', altasPaths.submissions));
    expect(items.find((each) => each._id === alta._id)?.chain).toMatchObject({ redAt: expect.any(String), a3At: expect.any(String) });
  }, 60_000);
});
