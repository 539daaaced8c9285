import { describe, expect, it } from 'vitest';
import { openElsewhereMessage } from '../dehu/desktop.ts';
import { storedCertificate, testDehuDesktop } from '../dehu/testing/desktop-context.ts';
import { startFakeDehuServer, type FakeDehuServer } from '../dehu/testing/fake-dehu-server.ts';
import { fakeLema } from '../dehu/testing/fake-lema.ts';
import { dispatch } from './registry.ts';
import { fakeContext } from './test-context.ts';

const A = 'a'.repeat(64);
const ID = '6f1c2a4e-8b7d-4c1a-9e2f-3a5b7c9d1e0f';

function serverWith(fingerprint: string, commonName: string): FakeDehuServer {
  const server = startFakeDehuServer();
  server.notifications.set(ID, {
    access: { _id: ID, identificador: 'ENV-9', codigoOrigen: 2, concepto: 'Requerimiento', estado: 'pendiente', certificate: { fingerprint, commonName, nif: 'B12345678' } },
    documents: [],
    opened: null,
  });
  return server;
}

describe('GetNotificationsFromDehu', () => {
  it('opens the notification and answers its stored documents', async () => {
    const server = serverWith(A, 'EMPRESA A SL');
    const dehu = testDehuDesktop(server, fakeLema({}), [storedCertificate(A, 'EMPRESA A SL')]);
    const envelope = await dispatch('GetNotificationsFromDehu', { notificationId: ID }, fakeContext({ dehu }));
    expect(envelope).toMatchObject({ ok: true, data: { notificationId: ID, documents: [{ kind: 'documento' }, { kind: 'anexo' }, { kind: 'anexo' }, { kind: 'acuse' }] } });
    expect(server.notifications.get(ID)!.opened).not.toBeNull();
  });

  it('the certificate lives on another PC: a Spanish refusal naming it', async () => {
    const server = serverWith('b'.repeat(64), 'EMPRESA B SL');
    const dehu = testDehuDesktop(server, fakeLema({}), [storedCertificate(A, 'EMPRESA A SL')]);
    expect(await dispatch('GetNotificationsFromDehu', { notificationId: ID }, fakeContext({ dehu }))).toEqual({ ok: false, error: { code: 'UNAVAILABLE', message: openElsewhereMessage('EMPRESA B SL') } });
  });

  it('an id that is not a uuid is refused before DEHÚ is asked', async () => {
    expect(await dispatch('GetNotificationsFromDehu', { notificationId: '12' }, fakeContext())).toMatchObject({ ok: false, error: { code: 'BAD_ARGS', message: expect.stringContaining('no es válido') } });
  });
});
