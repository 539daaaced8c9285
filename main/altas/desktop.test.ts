import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startA3Importer, type A3Importer } from '../../standins/a3-importer/importer.ts';
import { DeviceError } from '../device/errors.ts';
import { AFI_AUTHORIZATION_NOT_SET, AFI_FOLDER_NOT_SET, createAltasDesktop, NOT_ON_SERVER } from './desktop.ts';
import { testAltasDesktop } from './testing/desktop-context.ts';
import type { AltasDesktopSettings } from './settings.ts';
import { a3AltaRow, redAltaRecord } from './testing/fixtures.ts';
import { fakeSubmission, startFakeAltasServer, type FakeAltasServer } from './testing/fake-altas-server.ts';
import { fakeRegistrar, REFUSED_MESSAGE, type FakeRegistrar } from './testing/fake-registrar.ts';

let server: FakeAltasServer;
let a3Folder: string;
let importer: A3Importer | null = null;
beforeEach(async () => {
  a3Folder = await mkdtemp(join(tmpdir(), 'a3-altas-'));
});
afterEach(async () => {
  await importer?.close();
  importer = null;
  await server?.close();
  await rm(a3Folder, { recursive: true, force: true });
});

const desktop = (registrar: FakeRegistrar, overrides: Partial<AltasDesktopSettings> = {}) => testAltasDesktop(server, registrar, a3Folder, overrides);

describe('createAltasDesktop', () => {
  it('syncToRed: records from the server into RED with the certificate; RED’s refusals and the server’s problems are errors, all reported back', async () => {
    server = await startFakeAltasServer([
      fakeSubmission('s1'),
      fakeSubmission('s2', { record: redAltaRecord('s2', { nafNumber: '9999999999' }) }),
      fakeSubmission('s3', { complete: false }),
    ]);
    const registrar = fakeRegistrar(['289999999999']);
    const lines: string[] = [];
    const result = await desktop(registrar).syncToRed(['s1', 's2', 's3', 'borrada'], 'huella', { log: (level, text) => lines.push(`${level}: ${text}`) });
    expect(registrar.calls).toEqual([{ kind: 'register', submissionIds: ['s1', 's2'], certificate: 'huella' }]);
    expect(result).toEqual({
      results: [
        { submissionId: 's1', state: 'registered', message: 'Alta registrada en RED' },
        { submissionId: 's2', state: 'error', message: REFUSED_MESSAGE },
        { submissionId: 's3', state: 'error', message: 'Faltan datos o no son válidos: NAF' },
        { submissionId: 'borrada', state: 'error', message: NOT_ON_SERVER },
      ],
      registered: 1,
      failed: 3,
    });
    expect(server.submissions.map((each) => [each._id, each.redAt !== null, each.lastError])).toEqual([
      ['s1', true, null],
      ['s2', false, REFUSED_MESSAGE],
      ['s3', false, 'Faltan datos o no son válidos: NAF'],
    ]);
    expect(server.requests.every((request) => request.authorized)).toBe(true);
    expect(lines).toContain('warn: Altas registradas: 1; con error: 3.');
    expect(await desktop(registrar).pending()).toEqual({ red: [{ _id: 's2', title: server.submissions[1]!.title }, { _id: 's3', title: server.submissions[2]!.title }], a3: [{ _id: 's1', title: server.submissions[0]!.title }] });
  });

  it('syncToRed with the AFI channel writes one remittance and marks each alta as waiting for SILTRA', async () => {
    server = await startFakeAltasServer([fakeSubmission('s1'), fakeSubmission('s2')]);
    const registrar = fakeRegistrar();
    const result = await desktop(registrar).syncToRed(['s1', 's2'], 'huella', { channel: 'afi' });
    expect(result).toMatchObject({ registered: 0, failed: 0, afiFile: 'AFI_20261126_1.AFI' });
    expect(result.results.map((each) => each.state)).toEqual(['afi-written', 'afi-written']);
    expect(server.submissions.map((each) => each.afiFile)).toEqual(['AFI_20261126_1.AFI', 'AFI_20261126_1.AFI']);
    expect((await desktop(registrar).pending()).red).toEqual([]);
  });

  it('refuses a channel that is not set up, before asking the server for anything; a registrar failure is a Spanish FAILED', async () => {
    server = await startFakeAltasServer([fakeSubmission('s1')]);
    await expect(desktop(fakeRegistrar(), { siltraInstallFolder: null }).syncToRed(['s1'], 'huella', { channel: 'afi' })).rejects.toMatchObject({ code: 'UNAVAILABLE', message: AFI_FOLDER_NOT_SET });
    await expect(desktop(fakeRegistrar(), { redAuthorizationKey: null }).syncToRed(['s1'], 'huella', { channel: 'afi' })).rejects.toMatchObject({ code: 'UNAVAILABLE', message: AFI_AUTHORIZATION_NOT_SET });
    expect(server.requests).toEqual([]);
    const broken = fakeRegistrar([], new Error('RED Online no responde.'));
    await expect(desktop(broken).syncToRed(['s1'], 'huella')).rejects.toMatchObject({ code: 'FAILED', message: 'RED Online no responde.' });
    expect(server.submissions[0]!.lastError).toBeNull();
  });

  it('two RED batches asked at once run one after the other: an alta is filed in RED once', async () => {
    server = await startFakeAltasServer([fakeSubmission('s1')]);
    const registrar = fakeRegistrar();
    const altas = desktop(registrar);
    const [first, second] = await Promise.all([altas.syncToRed(['s1'], 'huella'), altas.syncToRed(['s1'], 'huella')]);
    expect(registrar.calls).toHaveLength(1);
    expect(first.registered).toBe(1);
    expect(second.results).toEqual([{ submissionId: 's1', state: 'error', message: 'Esta alta ya está registrada en Sistema RED' }]);
    expect(server.submissions[0]!.redAt).not.toBeNull();
  });

  it('syncToA3: rows into A3’s 202 – MA import, A3’s answer per alta reported to the server', async () => {
    importer = startA3Importer({ folder: a3Folder, companies: [], pollMs: 20 });
    server = await startFakeAltasServer([
      fakeSubmission('s1', { redAt: '2026-11-25T10:00:00.000Z' }),
      fakeSubmission('s2', { redAt: '2026-11-25T10:00:00.000Z', row: a3AltaRow('s2', { ocupacion: '' }) }),
      fakeSubmission('s3', { redAt: '2026-11-25T10:00:00.000Z', complete: false }),
      fakeSubmission('s4'),
    ]);
    const result = await desktop(fakeRegistrar()).syncToA3(['s1', 's2', 's3', 's4']);
    expect(result.importFile).toMatch(/MA_20261126-070000_[0-9a-f]{6}\.xlsx$/);
    expect(result).toMatchObject({
      results: [
        { submissionId: 's1', state: 'synced', error: null },
        { submissionId: 's2', state: 'error', error: 'Falta la ocupación (CNO): es obligatoria para un alta (MA).' },
        { submissionId: 's3', state: 'error', error: 'Faltan datos o no son válidos: NAF' },
        { submissionId: 's4', state: 'error', error: 'Esta alta aún no está registrada en Sistema RED' },
      ],
      synced: 1,
      failed: 3,
    });
    expect(server.submissions.map((each) => each.a3At !== null)).toEqual([true, false, false, false]);
  });

  it('an unlinked PC is told to link itself', async () => {
    server = await startFakeAltasServer([]);
    const unlinked = createAltasDesktop({ link: { ready: async () => undefined, current: () => null }, settings: async () => { throw new Error('no'); }, registrar: () => fakeRegistrar(), fetch, now: () => new Date() });
    await expect(unlinked.pending()).rejects.toBeInstanceOf(DeviceError);
  });
});
