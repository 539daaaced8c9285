import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startA3Importer, type A3Importer } from '../../standins/a3-importer/importer.ts';
import { fakeSubmission, startFakeAltasServer, type FakeAltasServer } from '../altas/testing/fake-altas-server.ts';
import { fakeRegistrar } from '../altas/testing/fake-registrar.ts';
import { testAltasDesktop } from '../altas/testing/desktop-context.ts';
import { a3AltaRow } from '../altas/testing/fixtures.ts';
import { dispatch } from './registry.ts';
import { fakeContext } from './test-context.ts';

let server: FakeAltasServer;
let importer: A3Importer | null = null;
let folder: string;
afterEach(async () => {
  await importer?.close();
  importer = null;
  await server?.close();
  await rm(folder, { recursive: true, force: true });
});

describe('SyncSubmissionsToA3', () => {
  it('imports the selected altas into A3 and answers A3’s word per alta', async () => {
    folder = await mkdtemp(join(tmpdir(), 'a3-'));
    importer = startA3Importer({ folder, companies: [], pollMs: 20 });
    const registered = '2026-11-25T10:00:00.000Z';
    server = await startFakeAltasServer([fakeSubmission('s1', { redAt: registered }), fakeSubmission('s2', { redAt: registered, row: a3AltaRow('s2', { convenio: '' }) })]);
    const envelope = await dispatch('SyncSubmissionsToA3', { submissionIds: ['s1', 's2'] }, fakeContext({ altas: testAltasDesktop(server, fakeRegistrar(), folder) }));
    expect(envelope).toMatchObject({
      ok: true,
      data: {
        importFile: expect.stringMatching(/MA_[\d-]+_[0-9a-f]{6}\.xlsx$/),
        results: [
          { submissionId: 's1', state: 'synced', error: null },
          { submissionId: 's2', state: 'error', error: 'Falta el código de convenio: es obligatorio para un alta (MA).' },
        ],
        synced: 1,
        failed: 1,
      },
    });
    expect(importer.altas).toHaveLength(1);
    expect(server.submissions.map((each) => each.a3At !== null)).toEqual([true, false]);
  });

  it('without the A3 importer, each alta fails with the reason after the wait', async () => {
    folder = await mkdtemp(join(tmpdir(), 'a3-'));
    server = await startFakeAltasServer([fakeSubmission('s1', { redAt: '2026-11-25T10:00:00.000Z' })]);
    const ctx = fakeContext({ altas: testAltasDesktop(server, fakeRegistrar(), folder, { a3AnswerTimeoutMs: 100 }) });
    const envelope = await dispatch('SyncSubmissionsToA3', { submissionIds: ['s1'] }, ctx);
    expect(envelope).toMatchObject({ ok: true, data: { synced: 0, failed: 1, results: [{ submissionId: 's1', state: 'error', error: expect.stringContaining('A3 no ha contestado') }] } });
    expect(server.submissions[0]!.lastError).toContain('A3 no ha contestado');
  });
});
