import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SILTRA_NO_FIE_TITLE } from '#shared/fie/messages.ts';
import { createPkcs12, createTestCertificate, testAuthority } from '../certificates/testing/spanish-certificates.ts';
import { startA3Importer, type A3Importer } from '../../standins/a3-importer/importer.ts';
import { sampleFierFile } from '../../standins/fier/files.ts';
import { startStandinFier, type StandinFier } from '../../standins/fier/fier.ts';
import { portalOptions, serverAuthority, SERVER_NAME } from '../../standins/portal/test-certificates.ts';
import { DeviceError } from '../device/errors.ts';
import { createFieDesktop, SILTRA_FOLDER_NOT_SET, type FieDesktop } from './desktop.ts';
import type { FieDesktopSettings } from './settings.ts';
import { startFakeFieServer, type FakeFieServer } from './testing/fake-fie-server.ts';

const PASSPHRASE = 'clave-de-prueba';
const holder = createTestCertificate({ nif: '78816596N', givenName: 'ELENA', surnames: 'RODRIGUEZ GARCIA', keyType: 'ec' });
const pfx = Buffer.from(createPkcs12(holder, PASSPHRASE, { extraCertificates: [testAuthority('AC FNMT Usuarios')] }));

let fier: StandinFier;
let server: FakeFieServer;
let siltraFolder: string;
let a3Folder: string;
const importers: A3Importer[] = [];

beforeAll(async () => {
  fier = await startStandinFier({ ...portalOptions(), files: [sampleFierFile('2026-11-24', 2), sampleFierFile('2026-11-25', 3)] });
  siltraFolder = await mkdtemp(join(tmpdir(), 'siltra-'));
  a3Folder = await mkdtemp(join(tmpdir(), 'a3-'));
  // The folder holds the 25th's file too (SILTRA downloaded it as well) and one of its own for the 23rd.
  await writeFile(join(siltraFolder, 'FIE_25.txt'), sampleFierFile('2026-11-25', 3).bytes);
  await writeFile(join(siltraFolder, 'FIE_23.txt'), sampleFierFile('2026-11-23', 1).bytes);
});
afterAll(async () => {
  await fier.close();
  await rm(siltraFolder, { recursive: true, force: true });
  await rm(a3Folder, { recursive: true, force: true });
});
afterEach(async () => {
  await Promise.all(importers.splice(0).map((importer) => importer.close()));
  await server?.close();
});

function desktop(overrides: Partial<FieDesktopSettings> = {}, linked = true): FieDesktop {
  const settings: FieDesktopSettings = { siltraFolder, fierUrl: fier.url, fierCa: [serverAuthority().pem], a3ImportDir: a3Folder, a3AnswerTimeoutMs: 5000, ...overrides };
  return createFieDesktop({
    link: { ready: async () => undefined, current: () => (linked ? { serverUrl: server.url, deviceToken: server.deviceToken, machine: { _id: 'm1', name: 'OFICINA-01' } } : null) },
    certificates: {
      clientCertificate: async (fingerprint) => {
        if (fingerprint !== holder.fingerprint) throw new Error('El certificado elegido no está en este dispositivo');
        return { pfx, passphrase: PASSPHRASE };
      },
    },
    settings: async () => settings,
    fetch,
    now: () => new Date('2026-11-26T07:00:00Z'),
    fierServername: SERVER_NAME,
  });
}

describe('GetFieFromSiltra service', () => {
  it('FIER with the certificate over mutual TLS: the files are uploaded with the device token', async () => {
    server = await startFakeFieServer();
    const result = await desktop().fetchFromSiltra({ certificate: holder.fingerprint, from: '2026-11-24', to: '2026-11-25', source: 'fier' });
    expect(result).toMatchObject({ from: '2026-11-24', to: '2026-11-25', found: 2, noResults: null, upload: { processed: 2, failed: 0, alreadyAdded: 0 } });
    expect(server.entries).toHaveLength(5);
    expect(server.requests.every((request) => request.authorized)).toBe(true);
    expect(fier.requests.filter((request) => request.nif === '78816596N').length).toBeGreaterThanOrEqual(3);
  });

  it('both sources: a file in the folder and in FIER goes up once; a second fetch finds them already added', async () => {
    server = await startFakeFieServer();
    const first = await desktop().fetchFromSiltra({ certificate: holder.fingerprint, from: '2026-11-23', to: '2026-11-25', source: 'both' });
    expect(first).toMatchObject({ found: 3, upload: { processed: 3, alreadyAdded: 0 } });
    const again = await desktop().fetchFromSiltra({ certificate: holder.fingerprint, from: '2026-11-25', to: '2026-11-25', source: 'folder' });
    expect(again).toMatchObject({ found: 1, upload: { processed: 0, alreadyAdded: 1 } });
  });

  it('no results: the §8 toast for a day and for a range, and nothing is uploaded', async () => {
    server = await startFakeFieServer();
    const day = await desktop().fetchFromSiltra({ certificate: holder.fingerprint, from: '2026-11-01', to: '2026-11-01', source: 'both' });
    expect(day).toEqual({ from: '2026-11-01', to: '2026-11-01', found: 0, upload: { results: [], processed: 0, failed: 0, alreadyAdded: 0 }, noResults: { title: SILTRA_NO_FIE_TITLE, text: 'Sin resultados en el dia 01/11/2026' } });
    const range = await desktop().fetchFromSiltra({ certificate: holder.fingerprint, from: '2026-10-01', to: '2026-10-15', source: 'fier' });
    expect(range.noResults).toEqual({ title: 'No hemos encontrado ningún FIE en SILTRA', text: 'Sin resultados entre el 01/10/2026 y el 15/10/2026' });
    expect(server.requests.filter((request) => request.path.startsWith('/api/fie/upload'))).toEqual([]);
  });

  it('both sources with FIER refusing: the folder still counts and the problem is told', async () => {
    server = await startFakeFieServer();
    const stranger = createTestCertificate({ nif: '12345678Z', issuer: testAuthority('AC Desconocida'), keyType: 'ec' });
    const refused = createFieDesktop({
      link: { ready: async () => undefined, current: () => ({ serverUrl: server.url, deviceToken: server.deviceToken, machine: { _id: 'm1', name: 'OFICINA-01' } }) },
      certificates: { clientCertificate: async () => ({ pfx: Buffer.from(createPkcs12(stranger, PASSPHRASE)), passphrase: PASSPHRASE }) },
      settings: async () => ({ siltraFolder, fierUrl: fier.url, fierCa: [serverAuthority().pem], a3ImportDir: a3Folder, a3AnswerTimeoutMs: 5000 }),
      fetch,
      now: () => new Date(),
      fierServername: SERVER_NAME,
    });
    const result = await refused.fetchFromSiltra({ certificate: stranger.fingerprint, from: '2026-11-23', to: '2026-11-23', source: 'both' });
    expect(result).toMatchObject({ found: 1, problems: ['Acceso denegado a FIER. El certificado no ha sido emitido por una autoridad de certificación reconocida.'] });
    await expect(refused.fetchFromSiltra({ certificate: stranger.fingerprint, from: '2026-11-23', to: '2026-11-23', source: 'fier' })).rejects.toThrow('Acceso denegado a FIER');
  });

  it('refuses without a SILTRA folder, or without a link to the server', async () => {
    server = await startFakeFieServer();
    await expect(desktop({ siltraFolder: null }).fetchFromSiltra({ certificate: holder.fingerprint, from: '2026-11-23', to: '2026-11-23', source: 'folder' })).rejects.toThrow(SILTRA_FOLDER_NOT_SET);
    await expect(desktop({}, false).fetchFromSiltra({ certificate: holder.fingerprint, from: '2026-11-23', to: '2026-11-23', source: 'folder' })).rejects.toBeInstanceOf(DeviceError);
  });
});

describe('RunFieRobot service and the pending sync', () => {
  it('the pending entries go to A3 and their states to the server; the next sync finds nothing pending', async () => {
    server = await startFakeFieServer();
    await desktop().fetchFromSiltra({ certificate: holder.fingerprint, from: '2026-11-24', to: '2026-11-24', source: 'fier' });
    const entries = server.entries.filter((each) => each.a3sync === 'pending');
    expect(entries.length).toBeGreaterThan(0);
    // A3 knows the first entry's company and worker only.
    const known = entries[0]!.entry;
    importers.push(startA3Importer({ folder: a3Folder, pollMs: 20, companies: [{ ccc: known.fields[310]!.value, name: 'EMPRESA', workers: [known.nif!] }] }));
    const result = await desktop().syncPending('run-1');
    expect(result).not.toBeNull();
    expect(result!.results).toHaveLength(entries.length);
    expect(result!.synced).toBe(1);
    expect(result!.failed).toBe(entries.length - 1);
    expect(server.entries.find((each) => each._id === entries[0]!._id)).toMatchObject({ a3sync: 'synced', a3Error: null, runId: 'run-1' });
    expect(server.entries.find((each) => each._id === entries[1]!._id)).toMatchObject({ a3sync: 'error', a3Error: expect.stringMatching(/no existe en a3nom|no está dado de alta/) });
    expect(await desktop().syncPending()).toBeNull();
  });
});
