import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CERTIFICATE_NOT_ON_MACHINE_MESSAGE, NOTIFICATION_DOCUMENT_MAX_BYTES, notificationsPaths, type NotificationDetail, type WatchedCertificatesResponse } from '#shared/api/notifications.ts';
import { pathFor } from '#shared/api/flows.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { registerColleague, withDatabase } from '../machines/test-support.ts';
import { Clock, EXE, NOTIFICATION_TABLES, PDF, envio, firmWithPc, multipartFile, page, realizada, upsert, type TestFirm } from './test-support.ts';

let server: TestServer;
let clock: Clock;
let firm: TestFirm;

beforeEach(async () => {
  clock = new Clock();
  server = await startTestServer({ now: clock.now });
  firm = await firmWithPc(server, 'ana@asesoria.es', 'despacho');
});
afterEach(async () => server.close());

const uploadDocument = (device: { token: string }, id: string, query: string, filename: string, data: Buffer) => {
  const { payload, headers } = multipartFile(filename, data);
  return server.app.inject({ method: 'POST', url: `${pathFor(notificationsPaths.robotDocuments, { id })}?${query}`, payload, headers: { ...headers, authorization: `Device ${device.token}` } });
};

describe('watched certificates', () => {
  it('replaces the set with certificates synced on a visible machine, and lists them with their machine', async () => {
    // The desktop's call marks its machine online.
    expect((await firm.device.get(notificationsPaths.robotCertificates)).json()).toEqual({ items: [] });
    const response = await firm.jar.put(notificationsPaths.certificates, { certificates: [{ machineId: firm.machineId, fingerprint: firm.fingerprints[0] }] });
    expect(response.statusCode, response.body).toBe(200);
    const { items } = response.json() as WatchedCertificatesResponse;
    expect(items).toEqual([expect.objectContaining({ fingerprint: firm.fingerprints[0], nif: '00000000T', available: true, lastUpdate: null, machine: expect.objectContaining({ _id: firm.machineId, mine: true, online: true }) })]);
    // Replaced: the second only.
    await firm.jar.put(notificationsPaths.certificates, { certificates: [{ machineId: firm.machineId, fingerprint: firm.fingerprints[1] }] });
    const listed = (await firm.jar.get(notificationsPaths.certificates)).json() as WatchedCertificatesResponse;
    expect(listed.items.map((item) => item.fingerprint)).toEqual([firm.fingerprints[1]]);
    const robot = await firm.device.get(notificationsPaths.robotCertificates);
    expect(robot.json()).toEqual({ items: [expect.objectContaining({ fingerprint: firm.fingerprints[1] })] });
  });

  it("refuses a certificate not on that machine, or on another firm's or a colleague's private machine, writing nothing", async () => {
    const other = await firmWithPc(server, 'eva@otra.es', 'otra');
    const colleague = await registerColleague(server, 'luis@asesoria.es', 'ana@asesoria.es');
    const before = server.countTables(NOTIFICATION_TABLES);
    for (const certificates of [
      [{ machineId: firm.machineId, fingerprint: other.fingerprints[0] }],
      [{ machineId: other.machineId, fingerprint: other.fingerprints[0] }],
      [{ machineId: firm.machineId, fingerprint: firm.fingerprints[0] }, { machineId: firm.machineId, fingerprint: 'f'.repeat(64) }],
    ]) {
      const response = await firm.jar.put(notificationsPaths.certificates, { certificates });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ message: CERTIFICATE_NOT_ON_MACHINE_MESSAGE });
    }
    // Ana's machine is not shared: her colleague cannot pick its certificates.
    expect((await colleague.put(notificationsPaths.certificates, { certificates: [{ machineId: firm.machineId, fingerprint: firm.fingerprints[0] }] })).statusCode).toBe(400);
    expect((await firm.jar.put(notificationsPaths.certificates, { certificates: [{ machineId: 'x', fingerprint: firm.fingerprints[0] }] })).statusCode).toBe(400);
    expect(server.countTables(NOTIFICATION_TABLES)).toEqual(before);
  });

  it('records the robot status; a certificate of the machine not yet watched joins the set, one not on it is 400', async () => {
    expect((await firm.device.post(notificationsPaths.robotStatus, { fingerprint: firm.fingerprints[0], state: 'running' })).statusCode).toBe(204);
    let [item] = ((await firm.jar.get(notificationsPaths.certificates)).json() as WatchedCertificatesResponse).items;
    expect(item?.lastUpdate).toMatchObject({ state: 'running', startedAt: clock.current.toISOString(), finishedAt: null });
    clock.advance(30_000);
    expect((await firm.device.post(notificationsPaths.robotStatus, { fingerprint: firm.fingerprints[0], state: 'done', found: 4, added: 2 })).statusCode).toBe(204);
    [item] = ((await firm.jar.get(notificationsPaths.certificates)).json() as WatchedCertificatesResponse).items;
    expect(item?.lastUpdate).toMatchObject({ state: 'done', finishedAt: clock.current.toISOString(), found: 4, added: 2, message: null });
    const summary = await firm.jar.get(notificationsPaths.summary);
    expect(summary.json()).toMatchObject({ lastUpdateAt: clock.current.toISOString() });
    const other = await firmWithPc(server, 'eva@otra.es', 'otra');
    const refused = await firm.device.post(notificationsPaths.robotStatus, { fingerprint: other.fingerprints[0], state: 'running' });
    expect(refused.statusCode).toBe(400);
    expect((await other.device.get(notificationsPaths.robotCertificates)).json()).toEqual({ items: [] });
  });

  it('robot paths need a device token', async () => {
    expect((await firm.jar.get(notificationsPaths.robotCertificates)).statusCode).toBe(401);
    expect((await server.app.inject({ method: 'POST', url: notificationsPaths.robotUpsert, headers: { authorization: 'Device nope' }, payload: {} })).statusCode).toBe(401);
  });
});

describe('upsert', () => {
  it('is idempotent: the same items twice add nothing and never duplicate, across certificates too', async () => {
    const items = [envio(), envio(), envio({ tipoEnvio: 1 })];
    expect(await upsert(firm.device, firm.fingerprints[0], items)).toEqual({ added: 3, updated: 0 });
    expect(await upsert(firm.device, firm.fingerprints[0], items)).toEqual({ added: 0, updated: 3 });
    expect(await upsert(firm.device, firm.fingerprints[1], [items[0]!])).toEqual({ added: 0, updated: 1 });
    expect(server.countRows('dehu_notifications')).toBe(3);
    // Both certificates joined the watched set.
    expect(server.countRows('dehu_watched_certificates')).toBe(2);
  });

  it('moves a pendiente to realizadas, and a later pendiente never moves it back', async () => {
    const item = envio({ concepto: 'Embargo' });
    await upsert(firm.device, firm.fingerprints[0], [item]);
    expect((await page(firm.jar)).total).toBe(1);
    expect(await upsert(firm.device, firm.fingerprints[0], [], [realizada(item, { estado: 'EXPIRADA', concepto: 'Embargo de cuentas' })])).toEqual({ added: 0, updated: 1 });
    expect((await page(firm.jar)).total).toBe(0);
    const [done] = (await page(firm.jar, '?view=realizadas')).items;
    expect(done).toMatchObject({ estado: 'expirada', concepto: 'Embargo de cuentas' });
    await upsert(firm.device, firm.fingerprints[0], [item]);
    expect((await page(firm.jar, '?view=realizadas')).items[0]).toMatchObject({ estado: 'expirada' });
  });

  it('refuses bad input with a Spanish 400 and writes nothing', async () => {
    const before = server.countTables(NOTIFICATION_TABLES);
    const other = await firmWithPc(server, 'eva@otra.es', 'otra');
    for (const body of [
      { fingerprint: firm.fingerprints[0], pendientes: [envio(), { ...envio(), fechaPuestaDisposicion: 'ayer' }], realizadas: [] },
      { fingerprint: firm.fingerprints[0], pendientes: [{ ...envio(), identificador: '' }], realizadas: [] },
      { fingerprint: firm.fingerprints[0], pendientes: [envio()] },
      { fingerprint: other.fingerprints[0], pendientes: [envio()], realizadas: [] },
    ]) {
      const response = await firm.device.post(notificationsPaths.robotUpsert, body);
      expect(response.statusCode, response.body).toBe(400);
      expect((response.json() as { issues: { message: string }[] }).issues[0]?.message).toMatch(/[a-záéíóúñ]/i);
    }
    expect(server.countTables(NOTIFICATION_TABLES)).toEqual(before);
  });
});

describe('opening and documents', () => {
  async function oneNotification(): Promise<string> {
    await upsert(firm.device, firm.fingerprints[0], [envio({ identificador: 'ID-1', codigoOrigen: 7 })]);
    return (await page(firm.jar)).items[0]!._id;
  }

  it('answers what PeticionAcceso needs, records the opening and stores documents byte for byte', async () => {
    const id = await oneNotification();
    const access = await firm.device.get(pathFor(notificationsPaths.robotAccess, { id }));
    expect(access.json()).toEqual({ _id: id, identificador: 'ID-1', codigoOrigen: 7, concepto: 'Requerimiento de información', estado: 'pendiente', certificate: expect.objectContaining({ fingerprint: firm.fingerprints[0], nif: '00000000T' }), documents: [] });

    const stored = await uploadDocument(firm.device, id, 'kind=documento&name=Notificación 1.pdf', 'x.pdf', PDF);
    expect(stored.statusCode, stored.body).toBe(201);
    const document = stored.json() as { _id: string; mimeType: string; size: number };
    expect(document).toMatchObject({ mimeType: 'application/pdf', size: PDF.length });
    // The same kind and name again replaces it.
    const again = await uploadDocument(firm.device, id, 'kind=documento&name=Notificación 1.pdf', 'x.pdf', PDF);
    expect(again.statusCode).toBe(201);
    expect(server.countRows('dehu_documents')).toBe(1);
    const latest = (again.json() as { _id: string })._id;

    const opened = await firm.device.post(pathFor(notificationsPaths.robotOpened, { id }), { fechaEvento: '2026-03-10T11:05:00+01:00', csvResguardo: 'CSV9', receptor: { nombre: 'ANA', nif: '12345678Z' } });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json() as NotificationDetail).toMatchObject({ estado: 'aceptada', openedAt: '2026-03-10T10:05:00.000Z', openedBy: { email: 'ana@asesoria.es' }, csvResguardo: 'CSV9', receptor: { nombre: 'ANA', nif: '12345678Z' }, documentCount: 1, documents: [{ _id: latest, kind: 'documento', name: 'Notificación 1.pdf' }] });
    expect((await page(firm.jar, '?view=realizadas')).total).toBe(1);

    const bytes = await firm.jar.get(pathFor(notificationsPaths.document, { id, documentId: latest }));
    expect(bytes.statusCode).toBe(200);
    expect(bytes.rawPayload.equals(PDF)).toBe(true);
    expect(bytes.headers['content-type']).toBe('application/pdf');
    expect(bytes.headers['content-disposition']).toBe("inline; filename*=UTF-8''Notificaci%C3%B3n%201.pdf");
    expect(bytes.headers['x-content-type-options']).toBe('nosniff');
    expect(bytes.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(bytes.headers['content-security-policy']).toBe("default-src 'none'; sandbox; frame-ancestors 'self'");
    // Everything else still refuses framing.
    expect((await firm.jar.get(notificationsPaths.summary)).headers['x-frame-options']).toBe('DENY');
  });

  it('judges a document by its content: an .exe named .pdf is refused (415) and nothing is kept', async () => {
    const id = await oneNotification();
    const refused = await uploadDocument(firm.device, id, 'kind=anexo&name=anexo.pdf', 'anexo.pdf', EXE);
    expect(refused.statusCode, refused.body).toBe(415);
    expect(refused.json()).toMatchObject({ code: 'FILE_TYPE_REFUSED' });
    expect(server.countRows('dehu_documents')).toBe(0);
    expect((await uploadDocument(firm.device, id, 'kind=otro&name=a.pdf', 'a.pdf', PDF)).statusCode).toBe(400);
    const huge = await uploadDocument(firm.device, id, 'kind=anexo&name=grande.pdf', 'grande.pdf', Buffer.concat([PDF, Buffer.alloc(NOTIFICATION_DOCUMENT_MAX_BYTES)]));
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ message: 'El documento supera el tamaño máximo de 20 MB' });
    expect(server.countRows('dehu_documents')).toBe(0);
  });

  it("keeps another firm's devices and users out", async () => {
    const id = await oneNotification();
    const documentId = ((await uploadDocument(firm.device, id, 'kind=acuse&name=acuse.pdf', 'acuse.pdf', PDF)).json() as { _id: string })._id;
    const other = await firmWithPc(server, 'eva@otra.es', 'otra');
    expect((await other.device.get(pathFor(notificationsPaths.robotAccess, { id }))).statusCode).toBe(404);
    expect((await uploadDocument(other.device, id, 'kind=anexo&name=a.pdf', 'a.pdf', PDF)).statusCode).toBe(404);
    expect((await other.device.post(pathFor(notificationsPaths.robotOpened, { id }), { fechaEvento: '2026-03-10T11:05:00+01:00', csvResguardo: null, receptor: { nombre: 'X', nif: 'Y' } })).statusCode).toBe(404);
    expect((await other.jar.get(pathFor(notificationsPaths.document, { id, documentId }))).statusCode).toBe(404);
    expect((await other.jar.get(pathFor(notificationsPaths.one, { id }))).statusCode).toBe(404);
    expect((await firm.jar.get(pathFor(notificationsPaths.one, { id }))).json()).toMatchObject({ estado: 'pendiente', documentCount: 1 });
  });
});

describe('summary', () => {
  it('counts new ones (24 h) and pending notificaciones expiring within 3 days', async () => {
    // NOW is 10 March 11:00 Madrid. Caducidad = disposición + 10 days.
    await upsert(firm.device, firm.fingerprints[0], [
      envio({ fechaPuestaDisposicion: '2026-03-01T12:00:00+01:00' }), // caduca 11 March: soon
      envio({ fechaPuestaDisposicion: '2026-03-03T09:00:00+01:00' }), // 13 March 09:00: soon
      envio({ fechaPuestaDisposicion: '2026-03-04T12:00:00+01:00' }), // 14 March 12:00: beyond 3 days
      envio({ fechaPuestaDisposicion: '2026-02-27T12:00:00+01:00' }), // 9 March: past
      envio({ fechaPuestaDisposicion: '2026-03-01T12:00:00+01:00', tipoEnvio: 1 }), // comunicación: no caducidad
    ]);
    // Those five were first seen more than a day ago.
    await withDatabase(server, (db) => db.updateTable('dehu_notifications').set({ first_seen_at: '2026-03-09T08:00:00.000Z' }).execute());
    await upsert(firm.device, firm.fingerprints[0], [envio({ fechaPuestaDisposicion: '2026-03-02T20:00:00+01:00' })]); // 12 March 20:00: soon
    const summary = (await firm.jar.get(notificationsPaths.summary)).json();
    expect(summary).toEqual({ newCount: 1, expiringSoonCount: 3, soonestCaducidad: '2026-03-11T11:00:00.000Z', lastUpdateAt: null });
    const other = await firmWithPc(server, 'eva@otra.es', 'otra');
    expect((await other.jar.get(notificationsPaths.summary)).json()).toEqual({ newCount: 0, expiringSoonCount: 0, soonestCaducidad: null, lastUpdateAt: null });
  });
});

it('keeps a deleted machine out of the notification but not the notification', async () => {
  await upsert(firm.device, firm.fingerprints[0], [envio()]);
  await withDatabase(server, (db) => db.deleteFrom('machines').where('id', '=', firm.machineId).execute());
  const [item] = (await page(firm.jar)).items;
  expect(item?.certificate).toEqual({ fingerprint: firm.fingerprints[0], commonName: expect.any(String), machine: null });
});
