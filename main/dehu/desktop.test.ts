import { describe, expect, it } from 'vitest';
import { CERTIFICATE_REQUIRED_MESSAGE, NOTIFICATIONS_MAX_UPSERT } from '#shared/api/notifications.ts';
import { certificateNotHereMessage, lookbackPeriod, openElsewhereMessage } from './desktop.ts';
import { storedCertificate, testDehuDesktop } from './testing/desktop-context.ts';
import { startFakeDehuServer, type FakeDehuServer } from './testing/fake-dehu-server.ts';
import { fakeLema, lemaEnvio, lemaRealizada } from './testing/fake-lema.ts';
import { LemaError } from './types.ts';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const C = 'c'.repeat(64);
const NOTIFICATION = '6f1c2a4e-8b7d-4c1a-9e2f-3a5b7c9d1e0f';

const watched = (fingerprint: string, commonName: string) => ({ fingerprint, commonName, nif: 'B12345678' });

function withNotification(server: FakeDehuServer, estado: 'pendiente' | 'aceptada', fingerprint = A, commonName = 'EMPRESA A SL') {
  server.notifications.set(NOTIFICATION, {
    access: { _id: NOTIFICATION, identificador: 'ENV-1', codigoOrigen: 1, concepto: 'Requerimiento', estado, certificate: { fingerprint, commonName, nif: 'B12345678' } },
    documents: [],
    opened: null,
  });
}

describe('createDehuDesktop update', () => {
  it('reads each watched certificate of this PC one at a time and reports running -> done or error; a failing one does not stop the next', async () => {
    const server = startFakeDehuServer([watched(A, 'EMPRESA A SL'), watched(B, 'EMPRESA B SL'), watched(C, 'EMPRESA C SL')]);
    const lema = fakeLema({
      [A]: { pendientes: [lemaEnvio('A-1'), lemaEnvio('A-2')], realizadas: [lemaRealizada('A-3')] },
      [B]: { pendientes: [], realizadas: [], failure: new LemaError('4103 - Certificado no autorizado', '4103') },
      [C]: { pendientes: [lemaEnvio('C-1')], realizadas: [] },
    });
    const lines: string[] = [];
    const dehu = testDehuDesktop(server, lema, [storedCertificate(A, 'EMPRESA A SL'), storedCertificate(B, 'EMPRESA B SL'), storedCertificate(C, 'EMPRESA C SL')]);

    const result = await dehu.update({ log: (level, text) => lines.push(`${level}: ${text}`) });

    expect(result.certificates).toEqual([
      { fingerprint: A, commonName: 'EMPRESA A SL', state: 'done', found: 3, added: 3, message: null },
      { fingerprint: B, commonName: 'EMPRESA B SL', state: 'error', found: 0, added: 0, message: '4103 - Certificado no autorizado' },
      { fingerprint: C, commonName: 'EMPRESA C SL', state: 'done', found: 1, added: 1, message: null },
    ]);
    expect(server.statuses).toEqual([
      { fingerprint: A, state: 'running' },
      { fingerprint: A, state: 'done', found: 3, added: 3 },
      { fingerprint: B, state: 'running' },
      { fingerprint: B, state: 'error', message: '4103 - Certificado no autorizado' },
      { fingerprint: C, state: 'running' },
      { fingerprint: C, state: 'done', found: 1, added: 1 },
    ]);
    expect(server.upserts.map((upsert) => [upsert.fingerprint, upsert.pendientes.length, upsert.realizadas.length])).toEqual([[A, 2, 1], [C, 1, 0]]);
    expect(lema.calls).toEqual([`localiza ${A}`, `localizaRealizadas ${A}`, `localiza ${B}`, `localiza ${C}`, `localizaRealizadas ${C}`]);
    expect(lema.options[0]).toMatchObject({ lemaUrl: 'https://localhost:8445/ws/v2/lema', passphrase: 'clave', servername: 'localhost' });
    expect(lines).toContain('error: «EMPRESA B SL»: 4103 - Certificado no autorizado');
  });

  it('asks the last 30 Madrid days up to yesterday 23:59:59, never today', () => {
    const period = lookbackPeriod(new Date('2026-11-26T09:00:00Z'));
    expect(period.fechaDesde.toISOString()).toBe('2026-10-27T23:00:00.000Z');
    expect(period.fechaHasta.toISOString()).toBe('2026-11-25T22:59:59.000Z');
  });

  it('a second run counts only what is new, and a big mailbox goes up in chunks the server takes', async () => {
    const many = Array.from({ length: NOTIFICATIONS_MAX_UPSERT + 5 }, (_, index) => lemaEnvio(`P-${index}`));
    const server = startFakeDehuServer([watched(A, 'EMPRESA A SL')]);
    const dehu = testDehuDesktop(server, fakeLema({ [A]: { pendientes: many, realizadas: [lemaRealizada('R-1')] } }), [storedCertificate(A, 'EMPRESA A SL')]);
    expect((await dehu.update()).certificates[0]).toMatchObject({ state: 'done', found: NOTIFICATIONS_MAX_UPSERT + 6, added: NOTIFICATIONS_MAX_UPSERT + 6 });
    expect(server.upserts.map((upsert) => [upsert.pendientes.length, upsert.realizadas.length])).toEqual([[NOTIFICATIONS_MAX_UPSERT, 1], [5, 0]]);
    expect((await dehu.update()).certificates[0]).toMatchObject({ state: 'done', added: 0 });
  });

  it('a watched certificate not in this PC’s store is an error of its own, told in Spanish', async () => {
    const server = startFakeDehuServer([watched(A, 'EMPRESA A SL'), watched(B, 'EMPRESA B SL')]);
    const dehu = testDehuDesktop(server, fakeLema({ [A]: { pendientes: [], realizadas: [] } }), [storedCertificate(A, 'EMPRESA A SL')]);
    const result = await dehu.update();
    expect(result.certificates.map((each) => [each.state, each.message])).toEqual([['done', null], ['error', certificateNotHereMessage('EMPRESA B SL')]]);
    // Never 'running': it could not start here.
    expect(server.statuses.filter((status) => status.fingerprint === B)).toEqual([{ fingerprint: B, state: 'error', message: certificateNotHereMessage('EMPRESA B SL') }]);
  });

  it('listed certificates only; one not watched but in this store is read too', async () => {
    const server = startFakeDehuServer([watched(A, 'EMPRESA A SL')]);
    const lema = fakeLema({ [A]: { pendientes: [], realizadas: [] }, [B]: { pendientes: [lemaEnvio('B-1')], realizadas: [] } });
    const dehu = testDehuDesktop(server, lema, [storedCertificate(A, 'EMPRESA A SL'), storedCertificate(B, 'EMPRESA B SL')]);
    const result = await dehu.update({ certificates: [B] });
    expect(result.certificates).toEqual([{ fingerprint: B, commonName: 'EMPRESA B SL', state: 'done', found: 1, added: 1, message: null }]);
    expect(lema.calls).toEqual([`localiza ${B}`, `localizaRealizadas ${B}`]);
  });

  it('two updates asked at once run one after the other: a certificate’s statuses never interleave', async () => {
    const server = startFakeDehuServer([watched(A, 'EMPRESA A SL')]);
    const dehu = testDehuDesktop(server, fakeLema({ [A]: { pendientes: [lemaEnvio('A-1')], realizadas: [] } }), [storedCertificate(A, 'EMPRESA A SL')]);
    await Promise.all([dehu.update(), dehu.update()]);
    expect(server.statuses.map((status) => status.state)).toEqual(['running', 'done', 'running', 'done']);
  });

  it('nothing watched on this PC and nothing listed: the certificate is required', async () => {
    const server = startFakeDehuServer([]);
    const dehu = testDehuDesktop(server, fakeLema({}), [storedCertificate(A, 'EMPRESA A SL')]);
    await expect(dehu.update()).rejects.toMatchObject({ code: 'UNAVAILABLE', message: CERTIFICATE_REQUIRED_MESSAGE });
    expect(server.statuses).toEqual([]);
  });
});

describe('createDehuDesktop open', () => {
  it('opens a pending notification once: PeticionAcceso, the notice, the comparecencia, each annex and the acuse, each stored once', async () => {
    const server = startFakeDehuServer();
    withNotification(server, 'pendiente');
    const lema = fakeLema({});
    const dehu = testDehuDesktop(server, lema, [storedCertificate(A, 'EMPRESA A SL')]);

    const result = await dehu.open(NOTIFICATION);

    expect(result.documents.map((document) => [document.kind, document.name])).toEqual([
      ['documento', 'notificacion.pdf'],
      ['anexo', 'anexo-1.pdf'],
      ['anexo', 'anexo-2.pdf'],
      ['acuse', 'acuse.pdf'],
    ]);
    expect(lema.calls).toEqual([
      `peticionAcceso ${A} ENV-1 B12345678 EMPRESA A SL`,
      `consultaAnexos ${A} ENV-1 UkVGMQ==`,
      `consultaAnexos ${A} ENV-1 UkVGMg==`,
      `consultaAcusePdf ${A} ENV-1`,
    ]);
    const stored = server.notifications.get(NOTIFICATION)!;
    expect(stored.documents).toHaveLength(4);
    expect(stored.opened).toEqual({ fechaEvento: '2026-11-26T10:15:00+01:00', csvResguardo: 'CSV-123', receptor: { nombre: 'EMPRESA A SL', nif: 'B12345678' } });

    // Opened now: asking again answers the stored documents and never calls PeticionAcceso a second time.
    const again = await dehu.open(NOTIFICATION);
    expect(again.documents.map((document) => document._id)).toEqual(result.documents.map((document) => document._id));
    expect(lema.calls.filter((call) => call.startsWith('peticionAcceso'))).toHaveLength(1);
    expect(stored.documents).toHaveLength(4);
  });

  it('two opens of the same notification at once ask PeticionAcceso once and answer the same documents', async () => {
    const server = startFakeDehuServer();
    withNotification(server, 'pendiente');
    const lema = fakeLema({});
    const dehu = testDehuDesktop(server, lema, [storedCertificate(A, 'EMPRESA A SL')]);
    const [first, second] = await Promise.all([dehu.open(NOTIFICATION), dehu.open(NOTIFICATION)]);
    expect(second).toEqual(first);
    expect(lema.calls.filter((call) => call.startsWith('peticionAcceso'))).toHaveLength(1);
    expect(server.notifications.get(NOTIFICATION)!.documents).toHaveLength(4);
  });

  it('an opened notification answers its stored documents and asks DEHÚ nothing', async () => {
    const server = startFakeDehuServer();
    withNotification(server, 'aceptada');
    const stored = { _id: 'd0c5d0c5-0000-4000-8000-000000000001', kind: 'documento' as const, name: 'notificacion.pdf', mimeType: 'application/pdf', size: 10, createdAt: '2026-11-20T09:00:00.000Z' };
    server.notifications.get(NOTIFICATION)!.documents.push(stored);
    const lema = fakeLema({});
    const result = await testDehuDesktop(server, lema, [storedCertificate(A, 'EMPRESA A SL')]).open(NOTIFICATION);
    expect(result).toEqual({ notificationId: NOTIFICATION, documents: [{ _id: stored._id, kind: 'documento', name: 'notificacion.pdf' }] });
    expect(lema.calls).toEqual([]);
  });

  it('the notification’s certificate on another PC: says where to open it and asks DEHÚ nothing', async () => {
    const server = startFakeDehuServer();
    withNotification(server, 'pendiente', B, 'EMPRESA B SL');
    const lema = fakeLema({});
    await expect(testDehuDesktop(server, lema, [storedCertificate(A, 'EMPRESA A SL')]).open(NOTIFICATION)).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: openElsewhereMessage('EMPRESA B SL'),
    });
    expect(openElsewhereMessage('EMPRESA B SL')).toBe('Abre esta notificación desde el equipo que tiene el certificado «EMPRESA B SL».');
    expect(lema.calls).toEqual([]);
  });
});
