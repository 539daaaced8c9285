import type { LocalCertificate } from '#shared/certificates/certificate.ts';
import { createDehuDesktop } from '../desktop.ts';
import type { DehuDesktop } from '../types.ts';
import { FAKE_DEVICE_TOKEN, FAKE_SERVER_URL, type FakeDehuServer } from './fake-dehu-server.ts';
import type { FakeLema } from './fake-lema.ts';

/** A certificate in this PC's fake store. */
export function storedCertificate(fingerprint: string, commonName: string, nifVat: string | null = 'B12345678'): LocalCertificate {
  return {
    fingerprint, serialNumber: '0A1B', subjectString: `CN=${commonName}, C=ES`, commonName, issuer: 'AC FNMT Usuarios', notBefore: '2025-01-01T00:00:00.000Z',
    notAfter: '2028-01-01T00:00:00.000Z', nifVat, kind: 'representative', store: 'pkcs12', location: `${commonName}.p12`, holderNif: null,
  };
}

/**
 * The DEHÚ service over the fake server and LEMA, linked, with these certificates in the store (the fake
 * pfx is the fingerprint, so the fake LEMA knows whose mailbox it reads).
 */
export function testDehuDesktop(server: FakeDehuServer, lema: FakeLema, store: LocalCertificate[], now = new Date('2026-11-26T09:00:00Z')): DehuDesktop {
  const here = new Map(store.map((certificate) => [certificate.fingerprint, certificate]));
  return createDehuDesktop({
    link: { ready: async () => undefined, current: () => ({ serverUrl: FAKE_SERVER_URL, deviceToken: FAKE_DEVICE_TOKEN, machine: { _id: 'maquina-1', name: 'OFICINA-01' } }) },
    certificates: {
      list: async () => ({ certificates: store, problems: [], folder: null }),
      clientCertificate: async (fingerprint) => {
        if (!here.has(fingerprint)) throw new Error('El certificado elegido no está en este dispositivo');
        return { pfx: Buffer.from(fingerprint, 'utf8'), passphrase: 'clave' };
      },
    },
    settings: async () => ({ lemaUrl: 'https://localhost:8445/ws/v2/lema', realizadasUrl: 'https://localhost:8445/ws/v1/realizadas', ca: undefined, successCodes: undefined, servername: 'localhost' }),
    lemaClient: lema.factory,
    fetch: server.fetch,
    now: () => now,
  });
}
