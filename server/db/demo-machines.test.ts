import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { machinesPaths, type ExpiringResponse, type Machine } from '#shared/api/machines.ts';
import { certificateMetadataSchema } from '#shared/certificates/certificate.ts';
import { isValidCif, isValidNif } from '#shared/validation/identifiers.ts';
import { CookieJar, startTestServer, type TestServer } from '../test/harness.ts';
import { DEMO_CERTIFICATES, DEMO_MACHINE_HASH, demoCertificateMetadata } from './demo-machines.ts';
import { DEMO_ACCOUNT } from './seed.ts';

const NOW = new Date('2026-03-10T09:00:00.000Z');

describe('the demo certificates', () => {
  it('are metadata a desktop could sync, with valid test NIFs and CIFs and demo names', () => {
    for (const certificate of DEMO_CERTIFICATES) {
      const metadata = demoCertificateMetadata(certificate, NOW);
      expect(z.safeParse(certificateMetadataSchema, metadata).success, certificate.commonName).toBe(true);
      const nif = metadata.nifVat ?? '';
      expect(certificate.kind === 'person' ? isValidNif(nif) : isValidCif(nif), nif).toBe(true);
      expect(metadata.commonName).toContain('DEMO');
      expect(Date.parse(metadata.notBefore)).toBeLessThan(Date.parse(metadata.notAfter));
    }
  });
});

describe('the demo account’s office PC', () => {
  let server: TestServer;
  let demo: CookieJar;
  beforeEach(async () => {
    server = await startTestServer({ demoAccount: true, demoFiles: false, now: () => NOW, scheduleRunnerIntervalMs: 0 });
    demo = new CookieJar(server.app);
    expect((await demo.post('/api/auth/login', { email: DEMO_ACCOUNT.email, password: DEMO_ACCOUNT.password })).statusCode).toBe(200);
  });
  afterEach(async () => server.close());

  it('is a shared machine of the demo user with five certificates', async () => {
    const { items } = (await demo.get(machinesPaths.machines)).json() as { items: Machine[] };
    expect(items.map((machine) => [machine.savedAs, machine.machineHashCode, machine.mine, machine.shared, machine.sync])).toEqual([
      ['PC Oficina', DEMO_MACHINE_HASH, true, true, true],
    ]);
    expect(items[0]?.owner.email).toBe(DEMO_ACCOUNT.email);
    expect(items[0]?.certificates.map((certificate) => certificate.kind).sort()).toEqual(['entity', 'person', 'person', 'person', 'representative']);
  });

  it('fills the expiry radar: expired 5 days ago, then 3, 12 and 45 days left', async () => {
    const radar = (await demo.get(machinesPaths.certificatesExpiring)).json() as ExpiringResponse;
    expect(radar.items.map((certificate) => [certificate.daysLeft, certificate.threshold, certificate.kind])).toEqual([
      [-5, 0, 'person'],
      [3, 7, 'entity'],
      [12, 14, 'representative'],
      [45, 60, 'person'],
    ]);
    expect(radar.items.every((certificate) => certificate.machine.name === 'PC Oficina')).toBe(true);
  });
});
