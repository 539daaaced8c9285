import type { ExpiringCertificate, Machine, SyncedCertificate } from '#shared/api/machines.ts';
import type { CertificateProblem, LocalCertificate } from '#shared/certificates/certificate.ts';

/** Test certificates and machines for the workspace screen: clearly fake people and test NIFs. */

export const LOCAL_HASH = 'a'.repeat(64);
export const OTHER_HASH = 'b'.repeat(64);

const fingerprintOf = (seed: string) => seed.repeat(64).slice(0, 64);
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

export function localCertificate(overrides: Partial<LocalCertificate> & { commonName: string }): LocalCertificate {
  return {
    fingerprint: fingerprintOf('1'),
    serialNumber: '0A1B2C',
    subjectString: `CN=${overrides.commonName}, serialNumber=IDCES-99999999R, C=ES`,
    issuer: 'AC FNMT Usuarios',
    notBefore: '2024-01-01T00:00:00.000Z',
    notAfter: inDays(400),
    nifVat: '99999999R',
    kind: 'person',
    store: 'nss',
    location: 'nss:PRUEBAS',
    holderNif: null,
    ...overrides,
  };
}

export const elena = localCertificate({ commonName: 'PRUEBAS GARCIA ELENA - 99999999R', fingerprint: fingerprintOf('1'), location: 'nss:Elena' });
export const empresa = localCertificate({
  commonName: '00000000T PRUEBA DEMO (R: B00000000)',
  fingerprint: fingerprintOf('2'),
  serialNumber: '0D0E0F',
  nifVat: 'B00000000',
  kind: 'representative',
  store: 'pkcs12',
  location: 'empresa.p12',
  holderNif: '00000000T',
});

export const lockedP12: CertificateProblem = {
  code: 'PASSWORD_REQUIRED',
  store: 'pkcs12',
  source: 'cerrado.pfx',
  message: 'Este archivo necesita su contraseña',
};

export function synced(certificate: LocalCertificate, machine: { _id: string; name: string }, id = `c-${certificate.fingerprint.slice(0, 4)}`): SyncedCertificate {
  return {
    _id: id,
    fingerprint: certificate.fingerprint,
    serialNumber: certificate.serialNumber,
    subjectString: certificate.subjectString,
    subject: { CN: certificate.commonName },
    issuer: certificate.issuer,
    notBefore: certificate.notBefore,
    notAfter: certificate.notAfter,
    nifVat: certificate.nifVat,
    kind: certificate.kind,
    store: certificate.store,
    machine,
    syncedAt: '2025-03-01T10:00:00.000Z',
  };
}

export function machine(overrides: Partial<Machine> & { _id: string; savedAs: string }): Machine {
  return {
    name: overrides.savedAs,
    machineHashCode: OTHER_HASH,
    sync: true,
    shared: false,
    mine: true,
    owner: { email: 'ana@asesoria.es', name: 'Ana' },
    certificates: [],
    configs: [],
    lastSyncAt: '2025-03-01T10:00:00.000Z',
    linked: false,
    online: false,
    lastSeenAt: null,
    createdAt: '2025-02-01T10:00:00.000Z',
    ...overrides,
  };
}

export const oficina = machine({
  _id: '11111111-1111-4111-8111-111111111111',
  savedAs: 'PC Oficina',
  shared: true,
  mine: false,
  machineHashCode: 'c'.repeat(64),
  owner: { email: 'luis@asesoria.es', name: 'Luis' },
  certificates: [
    synced(localCertificate({ commonName: 'SOCIEDAD DEMO SL', fingerprint: fingerprintOf('3'), nifVat: 'B00000000', kind: 'entity' }), {
      _id: '11111111-1111-4111-8111-111111111111',
      name: 'PC Oficina',
    }),
  ],
});

export const portatil = machine({ _id: '22222222-2222-4222-8222-222222222222', savedAs: 'Portátil de Ana' });

export function expiring(overrides: Partial<ExpiringCertificate> & { daysLeft: number; threshold: number; commonName: string }): ExpiringCertificate {
  const { commonName, ...rest } = overrides;
  const base = synced(localCertificate({ commonName, fingerprint: fingerprintOf(String(Math.abs(overrides.daysLeft) % 10)) }), { _id: oficina._id, name: 'PC Oficina' });
  return { ...base, _id: `e-${commonName}`, notAfter: inDays(overrides.daysLeft + 0.5), ...rest };
}
