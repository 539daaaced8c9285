import { afterEach, describe, expect, it } from 'vitest';
import { fakeSubmission, startFakeAltasServer, type FakeAltasServer } from '../altas/testing/fake-altas-server.ts';
import { fakeRegistrar } from '../altas/testing/fake-registrar.ts';
import { testAltasDesktop } from '../altas/testing/desktop-context.ts';
import { dispatch } from './registry.ts';
import { fakeContext } from './test-context.ts';

let server: FakeAltasServer;
afterEach(() => server?.close());

describe('GetForms', () => {
  it('answers what is left for RED and for A3, asked with the device token', async () => {
    server = await startFakeAltasServer([fakeSubmission('s1'), fakeSubmission('s2', { redAt: '2026-11-25T10:00:00.000Z' })]);
    const ctx = fakeContext({ altas: testAltasDesktop(server, fakeRegistrar(), '/nonexistent') });
    expect(await dispatch('GetForms', {}, ctx)).toEqual({
      ok: true,
      data: { red: [{ _id: 's1', title: server.submissions[0]!.title }], a3: [{ _id: 's2', title: server.submissions[1]!.title }] },
    });
    expect(server.requests).toEqual([{ method: 'GET', path: '/api/form-to-flow-submission/pending', authorized: true, body: undefined }]);
  });

  it('a token the server refuses is told in Spanish', async () => {
    server = await startFakeAltasServer([]);
    const ctx = fakeContext({ altas: testAltasDesktop({ ...server, deviceToken: 'tok_de_otro_equipo' }, fakeRegistrar(), '/nonexistent') });
    expect(await dispatch('GetForms', {}, ctx)).toEqual({ ok: false, error: { code: 'NOT_LINKED', message: 'Este dispositivo ya no está conectado a tu cuenta' } });
  });
});
