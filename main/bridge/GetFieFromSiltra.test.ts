import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sampleFierFile } from '../../standins/fier/files.ts';
import { createFieDesktop } from '../fie/desktop.ts';
import { startFakeFieServer, type FakeFieServer } from '../fie/testing/fake-fie-server.ts';
import { NOT_LINKED_MESSAGE } from '../device/errors.ts';
import { dispatch } from './registry.ts';
import { fakeContext } from './test-context.ts';

const CERTIFICATE = 'c'.repeat(64);
let folder: string;
let server: FakeFieServer;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'siltra-'));
  await writeFile(join(folder, 'FIE_1.txt'), sampleFierFile('2026-11-20', 2).bytes);
  await writeFile(join(folder, 'FIE_2.txt'), sampleFierFile('2026-11-22', 1).bytes);
});
afterAll(() => rm(folder, { recursive: true, force: true }));
afterEach(() => server?.close());

function context(linked = true) {
  return fakeContext({
    fie: createFieDesktop({
      link: { ready: async () => undefined, current: () => (linked ? { serverUrl: server.url, deviceToken: server.deviceToken, machine: { _id: 'm1', name: 'OFICINA-01' } } : null) },
      certificates: fakeContext().certificates,
      settings: async () => ({ siltraFolder: folder, fierUrl: null, fierCa: undefined, a3ImportDir: folder, a3AnswerTimeoutMs: 1000 }),
      fetch,
      now: () => new Date('2026-11-26T07:00:00Z'),
    }),
  });
}

describe('GetFieFromSiltra', () => {
  it('fetches a range given in either order and answers what the server made of the files', async () => {
    server = await startFakeFieServer();
    const envelope = await dispatch('GetFieFromSiltra', { flowInputs: { 'input-certificate': CERTIFICATE, 'input-msRange': ['2026-11-25', '2026-11-19'] }, source: 'folder' }, context());
    expect(envelope).toMatchObject({ ok: true, data: { from: '2026-11-19', to: '2026-11-25', found: 2, noResults: null, upload: { processed: 2, failed: 0, alreadyAdded: 0 } } });
    expect(server.documents.map((document) => document.fileName).sort()).toEqual(['FIE_1.txt', 'FIE_2.txt']);
  });

  it('one day without files: found 0 with the §8 no-results toast', async () => {
    server = await startFakeFieServer();
    const envelope = await dispatch('GetFieFromSiltra', { flowInputs: { 'input-certificate': CERTIFICATE, 'input-msRange': ['2026-11-21'] } }, context());
    expect(envelope).toMatchObject({
      ok: true,
      data: { found: 0, noResults: { title: 'No hemos encontrado ningún FIE en SILTRA', text: 'Sin resultados en el dia 21/11/2026' } },
    });
  });

  it('refuses a range of three dates or a certificate that is not a fingerprint, before doing anything', async () => {
    server = await startFakeFieServer();
    const three = await dispatch('GetFieFromSiltra', { flowInputs: { 'input-certificate': CERTIFICATE, 'input-msRange': ['2026-11-20', '2026-11-21', '2026-11-22'] } }, context());
    expect(three).toMatchObject({ ok: false, error: { code: 'BAD_ARGS' } });
    const noFingerprint = await dispatch('GetFieFromSiltra', { flowInputs: { 'input-certificate': 'mi certificado', 'input-msRange': ['2026-11-20'] } }, context());
    expect(noFingerprint).toMatchObject({ ok: false, error: { code: 'BAD_ARGS', message: expect.stringContaining('La huella del certificado no es válida') } });
    expect(server.requests).toEqual([]);
  });

  it('an unlinked PC is told to link first', async () => {
    server = await startFakeFieServer();
    await expect(dispatch('GetFieFromSiltra', { flowInputs: { 'input-certificate': CERTIFICATE, 'input-msRange': ['2026-11-20'] } }, context(false))).resolves.toEqual({
      ok: false,
      error: { code: 'NOT_LINKED', message: NOT_LINKED_MESSAGE },
    });
  });
});
