import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeFie } from '#shared/fie/decode.ts';
import { createPkcs12, createTestCertificate, testAuthority } from '../../main/certificates/testing/spanish-certificates.ts';
import { fierClient } from '../../main/siltra/fier-client.ts';
import { portalOptions, serverAuthority, SERVER_NAME } from '../portal/test-certificates.ts';
import { startStandinFier, type StandinFier } from './fier.ts';
import { sampleFierFile } from './files.ts';

const PASSPHRASE = 'clave-de-prueba';
let fier: StandinFier;

beforeAll(async () => {
  fier = await startStandinFier({
    ...portalOptions(),
    files: [sampleFierFile('2026-11-20', 3), sampleFierFile('2026-11-21', 2), sampleFierFile('2026-11-25', 4)],
  });
});
afterAll(() => fier.close());

const holder = createTestCertificate({ nif: '78816596N', givenName: 'ELENA', surnames: 'RODRIGUEZ GARCIA', keyType: 'ec' });
const clientFor = (pfx: Uint8Array) =>
  fierClient({ baseUrl: fier.url, pfx: Buffer.from(pfx), passphrase: PASSPHRASE, ca: [serverAuthority().pem], servername: SERVER_NAME });

describe('FIER stand-in over mutual TLS', () => {
  it('lists a range and downloads each FIE with a trusted certificate', async () => {
    const client = clientFor(createPkcs12(holder, PASSPHRASE, { extraCertificates: [testAuthority('AC FNMT Usuarios')] }));
    const listed = await client.list('2026-11-20', '2026-11-21');
    expect(listed.map((file) => file.fecha)).toEqual(['2026-11-20', '2026-11-21']);
    const file = await client.download(listed[0]!);
    expect(file).toMatchObject({ name: listed[0]!.nombre, day: '2026-11-20', source: 'fier' });
    const decoded = decodeFie(file.bytes);
    expect(decoded.entries).toHaveLength(3);
    expect(fier.requests.at(-1)).toMatchObject({ nif: '78816596N', status: 200 });
    // One day alone.
    expect((await client.list('2026-11-25', '2026-11-25')).map((each) => each.id)).toEqual([sampleFierFile('2026-11-25', 4).id]);
  });

  it('splits a range longer than FIER answers into several queries', async () => {
    const client = clientFor(createPkcs12(holder, PASSPHRASE));
    const before = fier.requests.length;
    const listed = await client.list('2026-10-01', '2026-11-30');
    expect(listed).toHaveLength(3);
    expect(fier.requests.slice(before).map((entry) => entry.path)).toEqual([
      '/fier/ficheros?fechaDesde=2026-10-01&fechaHasta=2026-10-31',
      '/fier/ficheros?fechaDesde=2026-11-01&fechaHasta=2026-11-30',
    ]);
  });

  it('refuses a request without a certificate (403 with the reason)', async () => {
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${fier.url}/fier/ficheros?fechaDesde=2026-11-20&fechaHasta=2026-11-21`, { ca: [serverAuthority().pem], servername: SERVER_NAME }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toEqual({ mensaje: 'Acceso denegado a FIER. No se ha presentado ningún certificado.' });
  });

  it('refuses a certificate of an authority it does not trust, in words the user reads', async () => {
    const stranger = createTestCertificate({ nif: '12345678Z', issuer: testAuthority('AC Desconocida'), keyType: 'ec' });
    await expect(clientFor(createPkcs12(stranger, PASSPHRASE)).list('2026-11-20', '2026-11-21')).rejects.toThrow(
      'Acceso denegado a FIER. El certificado no ha sido emitido por una autoridad de certificación reconocida.',
    );
  });

  it('does not trust a FIER server it cannot verify', async () => {
    const client = fierClient({ baseUrl: fier.url, pfx: Buffer.from(createPkcs12(holder, PASSPHRASE)), passphrase: PASSPHRASE, servername: SERVER_NAME });
    await expect(client.list('2026-11-20', '2026-11-21')).rejects.toThrow(`No se puede comprobar la identidad del servidor de FIER (${fier.url}).`);
  });
});
