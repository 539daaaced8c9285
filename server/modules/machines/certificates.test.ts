import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { devicesPaths, type DeviceLink } from '#shared/api/devices.ts';
import { DEVICE_NAME_REQUIRED_MESSAGE, machinesPaths, type ExpiringResponse, type Machine } from '#shared/api/machines.ts';
import { registerUser, type CookieJar, type TestServer, startTestServer } from '../../test/harness.ts';
import { certificate, machineHash, machinesOf, registerColleague, sync, syncUrl } from './test-support.ts';

const NOW = new Date('2026-03-10T09:00:00.000Z');
const OFFICE = machineHash('oficina');

let server: TestServer;
let ana: CookieJar;
beforeEach(async () => {
  server = await startTestServer({ now: () => NOW, scheduleRunnerIntervalMs: 0 });
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
});
afterEach(async () => server.close());

describe('POST /api/certificates (sync)', () => {
  it('a PC linked before its first sync takes the name typed for the sync, until the user renames it', async () => {
    const linked = await ana.post(devicesPaths.link, { machineHashCode: OFFICE, machineName: 'DESKTOP-7Q2K' });
    expect(linked.statusCode).toBe(201);
    const machineId = (linked.json() as DeviceLink).machine._id;
    const synced = await sync(ana, 'PC Oficina', { machineHashCode: OFFICE, digitalCertificates: [certificate('UNO', 90, NOW)] });
    expect(synced).toMatchObject({ _id: machineId, name: 'PC Oficina', savedAs: 'PC Oficina' });

    await ana.patch(machinesPaths.machine.replace(':id', machineId), { savedAs: 'Recepción' });
    const again = await sync(ana, 'PC Oficina 2', { machineHashCode: OFFICE, digitalCertificates: [certificate('UNO', 90, NOW)] });
    expect(again).toMatchObject({ name: 'PC Oficina 2', savedAs: 'Recepción' });
  });

  it('registers a new PC for the caller (201), then replaces its certificate set on each sync (200)', async () => {
    const first = await ana.post(syncUrl('  PC Oficina  '), {
      machineHashCode: OFFICE,
      digitalCertificates: [certificate('PÉREZ ANA', 200, NOW), certificate('GARCÍA LUIS', 90, NOW)],
    });
    expect(first.statusCode).toBe(201);
    const created = first.json() as Machine;
    expect(created).toMatchObject({ name: 'PC Oficina', savedAs: 'PC Oficina', machineHashCode: OFFICE, sync: true, shared: false, mine: true });
    expect(created.owner).toEqual({ email: 'ana@asesoria.es', name: 'Ana Pérez' });
    expect(created.lastSyncAt).toBe(NOW.toISOString());
    // Sorted by name, each saying which machine it is on.
    expect(created.certificates.map((c) => c.subject.CN)).toEqual(['GARCÍA LUIS - 00000000T', 'PÉREZ ANA - 00000000T']);
    expect(created.certificates[0]?.machine).toEqual({ _id: created._id, name: 'PC Oficina' });

    // Luis's certificate is gone from the PC, a new one appeared, Ana's was renewed (same fingerprint, new date).
    const renewed = certificate('PÉREZ ANA', 300, NOW);
    const second = await ana.post(syncUrl('PC Oficina'), {
      machineHashCode: OFFICE,
      digitalCertificates: [renewed, certificate('ALONSO EVA', 20, NOW, { kind: 'representative', nifVat: 'B12345674', store: 'pkcs12' })],
    });
    expect(second.statusCode).toBe(200);
    const machine = second.json() as Machine;
    expect(machine._id).toBe(created._id);
    expect(machine.certificates.map((c) => [c.subject.CN, c.kind, c.store, c.notAfter])).toEqual([
      ['ALONSO EVA - 00000000T', 'representative', 'pkcs12', expect.any(String)],
      ['PÉREZ ANA - 00000000T', 'person', 'windows', renewed.notAfter],
    ]);
    expect(server.countRows('machines')).toBe(1);
    expect(server.countRows('machine_certificates')).toBe(2);
  });

  it('unsyncs everything with an empty list, keeping the machine', async () => {
    await sync(ana, 'PC Oficina', { machineHashCode: OFFICE, digitalCertificates: [certificate('PÉREZ ANA', 200, NOW)] });
    const machine = await sync(ana, 'PC Oficina', { machineHashCode: OFFICE, digitalCertificates: [] });
    expect(machine).toMatchObject({ sync: false, certificates: [] });
    expect(server.countRows('machine_certificates')).toBe(0);
    expect(server.countRows('machines')).toBe(1);
  });

  it('keeps one row for a certificate found in two stores of the PC', async () => {
    const inStore = certificate('PÉREZ ANA', 200, NOW);
    const machine = await sync(ana, 'PC Oficina', { machineHashCode: OFFICE, digitalCertificates: [inStore, { ...inStore, store: 'pkcs12' }] });
    expect(machine.certificates).toHaveLength(1);
  });

  it('needs a device name that is not blank (400 in Spanish, nothing written)', async () => {
    for (const url of [syncUrl('   '), machinesPaths.certificates]) {
      const response = await ana.post(url, { machineHashCode: OFFICE, digitalCertificates: [] });
      expect(response.statusCode).toBe(400);
      expect(response.json().issues).toEqual([{ path: 'machineName', message: expect.any(String) }]);
    }
    const blank = await ana.post(syncUrl('   '), { machineHashCode: OFFICE, digitalCertificates: [] });
    expect(blank.json().issues[0].message).toBe(DEVICE_NAME_REQUIRED_MESSAGE);
    expect(server.countRows('machines')).toBe(0);
  });

  it('refuses anything that looks like key material, and unknown fields (400, nothing written)', async () => {
    const withKey = { ...certificate('PÉREZ ANA', 200, NOW), privateKey: 'secreta' };
    const pemSubject = certificate('PÉREZ ANA', 200, NOW, { subjectString: '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----' });
    const attempts = [
      { machineHashCode: OFFICE, digitalCertificates: [withKey] },
      { machineHashCode: OFFICE, digitalCertificates: [pemSubject] },
      { machineHashCode: OFFICE, digitalCertificates: [], pfx: 'MIIKbgIBAzCCCjQGCSqGSIb3DQEHAaCCCiUEggohMIIKHTCCBa8GCSqGSIb3DQEHAaCCBaAE' },
      { machineHashCode: 'not-a-hash', digitalCertificates: [] },
    ];
    for (const body of attempts) {
      const response = await ana.post(syncUrl('PC Oficina'), body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.json().issues.length).toBeGreaterThan(0);
    }
    const pem = await ana.post(syncUrl('PC Oficina'), attempts[1]);
    expect(pem.json().issues).toContainEqual({ path: 'digitalCertificates.0.subjectString', message: 'Este campo no puede llevar una clave ni un certificado codificado' });
    expect(server.countRows('machines')).toBe(0);
    expect(server.countRows('machine_certificates')).toBe(0);
  });

  it('lets a colleague sync a shared PC, but not one kept private (404, nothing written)', async () => {
    const luis = await registerColleague(server, 'luis@asesoria.es', 'ana@asesoria.es');
    const machine = await sync(ana, 'PC Oficina', { machineHashCode: OFFICE, digitalCertificates: [certificate('PÉREZ ANA', 200, NOW)] });

    const refused = await luis.post(syncUrl('Mi PC'), { machineHashCode: OFFICE, digitalCertificates: [] });
    expect(refused.statusCode).toBe(404);
    expect(refused.json().code).toBe('MACHINE_NOT_FOUND');
    expect(server.countRows('machine_certificates')).toBe(1);
    expect(server.countRows('machines')).toBe(1);

    expect((await ana.patch(machinesPaths.machine.replace(':id', machine._id), { shared: true })).statusCode).toBe(200);
    const shared = await luis.post(syncUrl('PC Oficina'), { machineHashCode: OFFICE, digitalCertificates: [certificate('MARTÍN LUIS', 100, NOW)] });
    expect(shared.statusCode).toBe(200);
    expect(shared.json()).toMatchObject({ _id: machine._id, mine: false, shared: true, owner: { email: 'ana@asesoria.es' } });
    expect((shared.json() as Machine).certificates.map((c) => c.subject.CN)).toEqual(['MARTÍN LUIS - 00000000T']);
  });

  it('keeps two firms on one PC apart: same hash, two machines', async () => {
    const otherFirm = await registerUser(server.app, 'eva@otra.es', 'Eva Ruiz');
    const ours = await sync(ana, 'PC Oficina', { machineHashCode: OFFICE, digitalCertificates: [certificate('PÉREZ ANA', 200, NOW)] });
    const response = await otherFirm.post(syncUrl('Portátil'), { machineHashCode: OFFICE, digitalCertificates: [] });
    expect(response.statusCode).toBe(201);
    expect((response.json() as Machine)._id).not.toBe(ours._id);
    expect((await machinesOf(ana)).map((m) => [m.savedAs, m.certificates.length])).toEqual([['PC Oficina', 1]]);
    expect((await machinesOf(otherFirm)).map((m) => [m.savedAs, m.certificates.length])).toEqual([['Portátil', 0]]);
  });

  it('registers a PC once when its first two syncs arrive together', async () => {
    const request = { machineHashCode: OFFICE, digitalCertificates: [certificate('PÉREZ ANA', 200, NOW)] };
    const [one, two] = await Promise.all([ana.post(syncUrl('PC Oficina'), request), ana.post(syncUrl('PC Oficina'), request)]);
    expect([one.statusCode, two.statusCode].sort()).toEqual([200, 201]);
    expect((one.json() as Machine)._id).toBe((two.json() as Machine)._id);
    expect(server.countRows('machines')).toBe(1);
    expect(server.countRows('machine_certificates')).toBe(1);
  });

  it('needs a session (401, nothing written)', async () => {
    const response = await server.app.inject({ method: 'POST', url: syncUrl('PC Oficina'), payload: { machineHashCode: OFFICE, digitalCertificates: [] } });
    expect(response.statusCode).toBe(401);
    expect(server.countRows('machines')).toBe(0);
  });
});

describe('GET /api/certificates/expiring (the radar)', () => {
  const radar = async (jar: CookieJar, query = '') => {
    const response = await jar.get(`${machinesPaths.certificatesExpiring}${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as ExpiringResponse;
  };

  it('lists what expires within the days asked, and what expired in the last 30, soonest first with its threshold', async () => {
    await sync(ana, 'PC Oficina', {
      machineHashCode: OFFICE,
      digitalCertificates: [
        certificate('LEJANO', 200, NOW),
        certificate('CUARENTA Y CINCO', 45, NOW),
        certificate('TRES', 3, NOW),
        certificate('CADUCADO', -6, NOW),
        certificate('CADUCADO HACE MUCHO', -40, NOW),
        certificate('DOCE', 12, NOW),
        certificate('HOY', 0, NOW),
      ],
    });
    const { items, days } = await radar(ana);
    expect(days).toBe(60);
    expect(items.map((c) => [c.subject.CN.replace(' - 00000000T', ''), c.daysLeft, c.threshold])).toEqual([
      ['CADUCADO', -6, 0],
      ['HOY', 0, 1],
      ['TRES', 3, 7],
      ['DOCE', 12, 14],
      ['CUARENTA Y CINCO', 45, 60],
    ]);
    expect(items[0]?.machine.name).toBe('PC Oficina');

    expect((await radar(ana, '?days=7')).items.map((c) => c.daysLeft)).toEqual([-6, 0, 3]);
    // Beyond the radar's 60 days, a certificate is within the window asked for.
    const wide = await radar(ana, '?days=365');
    expect(wide.items.at(-1)).toMatchObject({ daysLeft: 200, threshold: 365 });
  });

  it('shows colleagues only what is shared with them, and never another firm’s', async () => {
    const luis = await registerColleague(server, 'luis@asesoria.es', 'ana@asesoria.es');
    const otherFirm = await registerUser(server.app, 'eva@otra.es', 'Eva Ruiz');
    const machine = await sync(ana, 'PC Oficina', { machineHashCode: OFFICE, digitalCertificates: [certificate('TRES', 3, NOW)] });
    await sync(otherFirm, 'Portátil', { machineHashCode: machineHash('otra'), digitalCertificates: [certificate('AJENO', 5, NOW)] });

    expect((await radar(luis)).items).toEqual([]);
    await ana.patch(machinesPaths.machine.replace(':id', machine._id), { shared: true, savedAs: 'Recepción' });
    expect((await radar(luis)).items.map((c) => [c.subject.CN, c.machine.name])).toEqual([['TRES - 00000000T', 'Recepción']]);
    expect((await radar(otherFirm)).items.map((c) => c.subject.CN)).toEqual(['AJENO - 00000000T']);
  });

  it('refuses a window it cannot read (400 in Spanish) and needs a session', async () => {
    for (const query of ['?days=0', '?days=366', '?days=2.5', '?days=muchos']) {
      const response = await ana.get(`${machinesPaths.certificatesExpiring}${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().issues[0].path).toBe('days');
    }
    expect((await server.app.inject({ method: 'GET', url: machinesPaths.certificatesExpiring })).statusCode).toBe(401);
  });
});
