import { afterEach, describe, expect, it } from 'vitest';
import { AFI_FOLDER_NOT_SET } from '../altas/desktop.ts';
import { fakeSubmission, startFakeAltasServer, type FakeAltasServer } from '../altas/testing/fake-altas-server.ts';
import { fakeRegistrar, REFUSED_MESSAGE } from '../altas/testing/fake-registrar.ts';
import { testAltasDesktop } from '../altas/testing/desktop-context.ts';
import { redAltaRecord } from '../altas/testing/fixtures.ts';
import { dispatch } from './registry.ts';
import { fakeContext } from './test-context.ts';

let server: FakeAltasServer;
afterEach(() => server?.close());
const FINGERPRINT = 'ab'.repeat(32);

describe('SyncSubmissions', () => {
  it('registers the selected altas in RED with the certificate and answers each one', async () => {
    server = await startFakeAltasServer([fakeSubmission('s1'), fakeSubmission('s2', { record: redAltaRecord('s2', { nafNumber: '9999999999' }) })]);
    const registrar = fakeRegistrar(['289999999999']);
    const envelope = await dispatch('SyncSubmissions', { submissionIds: ['s1', 's2'], certificate: FINGERPRINT }, fakeContext({ altas: testAltasDesktop(server, registrar, '/nonexistent') }));
    expect(envelope).toEqual({
      ok: true,
      data: {
        results: [
          { submissionId: 's1', state: 'registered', message: 'Alta registrada en RED' },
          { submissionId: 's2', state: 'error', message: REFUSED_MESSAGE },
        ],
        registered: 1,
        failed: 1,
      },
    });
    expect(registrar.calls).toEqual([{ kind: 'register', submissionIds: ['s1', 's2'], certificate: FINGERPRINT }]);
  });

  it('the AFI channel answers the file written', async () => {
    server = await startFakeAltasServer([fakeSubmission('s1')]);
    const envelope = await dispatch('SyncSubmissions', { submissionIds: ['s1'], certificate: FINGERPRINT, channel: 'afi' }, fakeContext({ altas: testAltasDesktop(server, fakeRegistrar(), '/nonexistent') }));
    expect(envelope).toMatchObject({ ok: true, data: { afiFile: 'AFI_20261126_1.AFI', registered: 0, failed: 0 } });
  });

  it('refuses no selection, and an AFI without SILTRA’s folder', async () => {
    server = await startFakeAltasServer([fakeSubmission('s1')]);
    const ctx = fakeContext({ altas: testAltasDesktop(server, fakeRegistrar(), '/nonexistent', { siltraInstallFolder: null }) });
    expect(await dispatch('SyncSubmissions', { submissionIds: [], certificate: FINGERPRINT }, ctx)).toMatchObject({ ok: false, error: { code: 'BAD_ARGS' } });
    expect(await dispatch('SyncSubmissions', { submissionIds: ['s1'], certificate: FINGERPRINT, channel: 'afi' }, ctx)).toEqual({ ok: false, error: { code: 'UNAVAILABLE', message: AFI_FOLDER_NOT_SET } });
  });
});
