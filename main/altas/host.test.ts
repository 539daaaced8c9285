import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHostAltasDesktop } from './host.ts';
import { fakeSubmission, startFakeAltasServer, type FakeAltasServer } from './testing/fake-altas-server.ts';

let server: FakeAltasServer;
const folders: string[] = [];
afterEach(async () => {
  await server?.close();
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

describe('createHostAltasDesktop', () => {
  it('wires the settings into the registrar: an AFI remittance lands in SILTRA’s RED/VIPTC2/AFI and the server hears of it', async () => {
    server = await startFakeAltasServer([fakeSubmission('s1'), fakeSubmission('s2')]);
    const dataFolder = await mkdtemp(join(tmpdir(), 'aa-altas-host-'));
    const siltra = await mkdtemp(join(tmpdir(), 'siltra-'));
    folders.push(dataFolder, siltra);
    const altas = createHostAltasDesktop({
      link: { ready: async () => undefined, current: () => ({ serverUrl: server.url, deviceToken: server.deviceToken, machine: { _id: 'm1', name: 'OFICINA-01' } }) },
      certificates: { clientCertificate: async () => { throw new Error('sin certificados'); } },
      dataFolder,
      env: { SILTRA_INSTALL_FOLDER: siltra, RED_AUTHORIZATION_KEY: '12345678', RED_AFI_TEST: '1' },
      fetch,
    });
    const result = await altas.syncToRed(['s1', 's2'], 'ab'.repeat(32), { channel: 'afi' });
    expect(result.results.map((each) => each.state)).toEqual(['afi-written', 'afi-written']);
    const [written] = await readdir(join(siltra, 'RED', 'VIPTC2', 'AFI'));
    expect(result.afiFile).toBe(join(siltra, 'RED', 'VIPTC2', 'AFI', written!));
    expect(server.submissions.map((each) => each.afiFile)).toEqual([written, written]);
  });

  it('RED Online with a certificate this PC does not have fails every alta with the reason, before any browser', async () => {
    server = await startFakeAltasServer([fakeSubmission('s1')]);
    const dataFolder = await mkdtemp(join(tmpdir(), 'aa-altas-host-'));
    folders.push(dataFolder);
    const altas = createHostAltasDesktop({
      link: { ready: async () => undefined, current: () => ({ serverUrl: server.url, deviceToken: server.deviceToken, machine: { _id: 'm1', name: 'OFICINA-01' } }) },
      certificates: { clientCertificate: async () => { throw new Error('El certificado elegido no está en este dispositivo'); } },
      dataFolder,
      env: { RED_ONLINE_URL: 'https://127.0.0.1:9' },
      fetch,
    });
    await expect(altas.syncToRed(['s1'], 'ab'.repeat(32))).rejects.toMatchObject({ code: 'FAILED', message: 'No se ha podido usar el certificado elegido: El certificado elegido no está en este dispositivo' });
  });
});
