import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { toA3SyncRecord } from '#shared/a3/sync-record.ts';
import { decodeFie } from '#shared/fie/decode.ts';
import { startA3Importer, type A3Importer } from '../../standins/a3-importer/importer.ts';
import { sampleFierFile } from '../../standins/fier/files.ts';
import { createFieDesktop } from '../fie/desktop.ts';
import { startFakeFieServer, type FakeFieServer } from '../fie/testing/fake-fie-server.ts';
import { dispatch } from './registry.ts';
import { fakeContext } from './test-context.ts';

let server: FakeFieServer;
let importer: A3Importer | null = null;
let folder: string;
afterEach(async () => {
  await importer?.close();
  importer = null;
  await server?.close();
  await rm(folder, { recursive: true, force: true });
});

async function setup(answerTimeoutMs = 5000) {
  server = await startFakeFieServer();
  folder = await mkdtemp(join(tmpdir(), 'a3-'));
  return fakeContext({
    fie: createFieDesktop({
      link: { ready: async () => undefined, current: () => ({ serverUrl: server.url, deviceToken: server.deviceToken, machine: { _id: 'm1', name: 'OFICINA-01' } }) },
      certificates: fakeContext().certificates,
      settings: async () => ({ siltraFolder: null, fierUrl: null, fierCa: undefined, a3ImportDir: folder, a3AnswerTimeoutMs: answerTimeoutMs }),
      fetch,
      now: () => new Date('2026-11-26T07:00:00Z'),
    }),
  });
}

/** Three entries of a real FIE as the server's a3-records answers them. */
function records() {
  return decodeFie(sampleFierFile('2026-11-20', 3).bytes).entries.map((entry, index) => ({ entryId: `entrada-${index}`, ...toA3SyncRecord(entry, { fieId: 'fie-1' }) }));
}

describe('RunFieRobot', () => {
  it('imports the rows into A3 and reports each entry to the server: accepted and refused', async () => {
    const ctx = await setup();
    const rows = records();
    const [first] = rows;
    importer = startA3Importer({ folder, pollMs: 20, companies: [{ ccc: first!.ccc!, name: first!.nombreEmpresa!, workers: [first!.dniEmpleado!] }] });
    const envelope = await dispatch('RunFieRobot', { flowId: 'fie-incidencias-a3', flowInputs: { 'input-dataTable': rows }, fieIds: ['fie-1'] }, ctx);
    expect(envelope.ok).toBe(true);
    if (!envelope.ok) return;
    const data = envelope.data as { importFile: string; synced: number; failed: number; results: { entryId: string; state: string; error: string | null }[] };
    expect(data.importFile.startsWith(folder)).toBe(true);
    expect(data.synced).toBe(1);
    expect(data.failed).toBe(2);
    expect(data.results[0]).toEqual({ entryId: 'entrada-0', state: 'synced', error: null });
    expect(data.results[1]).toMatchObject({ entryId: 'entrada-1', state: 'error', error: expect.stringContaining('no existe en a3nom') });
    const reported = server.requests.filter((request) => request.path === '/api/fie/a3-results');
    expect(reported).toHaveLength(1);
  });

  it('A3 not answering: every entry is an error saying so, and the server is told', async () => {
    const ctx = await setup(100);
    const envelope = await dispatch('RunFieRobot', { flowId: 'fie-incidencias-a3', flowInputs: { 'input-dataTable': records().slice(0, 1) }, fieIds: ['fie-1'] }, ctx);
    expect(envelope).toMatchObject({ ok: true, data: { synced: 0, failed: 1, results: [{ entryId: 'entrada-0', state: 'error', error: expect.stringContaining('A3 no ha contestado') }] } });
  });

  it('refuses an empty selection', async () => {
    const ctx = await setup();
    await expect(dispatch('RunFieRobot', { flowId: 'fie-incidencias-a3', flowInputs: { 'input-dataTable': [] }, fieIds: [] }, ctx)).resolves.toMatchObject({
      ok: false,
      error: { code: 'BAD_ARGS', message: expect.stringContaining('Selecciona al menos un parte') },
    });
  });
});
