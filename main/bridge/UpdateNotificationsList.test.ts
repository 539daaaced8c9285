import { describe, expect, it } from 'vitest';
import { CERTIFICATE_REQUIRED_MESSAGE } from '#shared/api/notifications.ts';
import { storedCertificate, testDehuDesktop } from '../dehu/testing/desktop-context.ts';
import { startFakeDehuServer } from '../dehu/testing/fake-dehu-server.ts';
import { fakeLema, lemaEnvio } from '../dehu/testing/fake-lema.ts';
import { dispatch } from './registry.ts';
import { fakeContext } from './test-context.ts';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);

describe('UpdateNotificationsList', () => {
  it('updates the watched certificates of this PC and answers each one’s outcome', async () => {
    const server = startFakeDehuServer([{ fingerprint: A, commonName: 'EMPRESA A SL', nif: 'B12345678' }]);
    const dehu = testDehuDesktop(server, fakeLema({ [A]: { pendientes: [lemaEnvio('A-1')], realizadas: [] } }), [storedCertificate(A, 'EMPRESA A SL')]);
    const envelope = await dispatch('UpdateNotificationsList', {}, fakeContext({ dehu }));
    expect(envelope).toEqual({ ok: true, data: { certificates: [{ fingerprint: A, commonName: 'EMPRESA A SL', state: 'done', found: 1, added: 1, message: null }] } });
    expect(server.statuses.map((status) => status.state)).toEqual(['running', 'done']);
  });

  it('only the listed certificates', async () => {
    const server = startFakeDehuServer([{ fingerprint: A, commonName: 'EMPRESA A SL', nif: null }]);
    const lema = fakeLema({ [A]: { pendientes: [], realizadas: [] }, [B]: { pendientes: [], realizadas: [] } });
    const dehu = testDehuDesktop(server, lema, [storedCertificate(A, 'EMPRESA A SL'), storedCertificate(B, 'EMPRESA B SL')]);
    const envelope = await dispatch('UpdateNotificationsList', { certificates: [B] }, fakeContext({ dehu }));
    expect(envelope).toMatchObject({ ok: true, data: { certificates: [{ fingerprint: B, state: 'done' }] } });
    expect(lema.calls).toEqual([`localiza ${B}`, `localizaRealizadas ${B}`]);
  });

  it('no certificate to update: the Spanish requirement, and a bad fingerprint is refused before anything runs', async () => {
    const dehu = testDehuDesktop(startFakeDehuServer([]), fakeLema({}), []);
    expect(await dispatch('UpdateNotificationsList', {}, fakeContext({ dehu }))).toEqual({ ok: false, error: { code: 'UNAVAILABLE', message: CERTIFICATE_REQUIRED_MESSAGE } });
    expect(await dispatch('UpdateNotificationsList', { certificates: ['nope'] }, fakeContext({ dehu }))).toMatchObject({ ok: false, error: { code: 'BAD_ARGS' } });
  });
});
