import { describe, expect, it } from 'vitest';
import type { AutopilotSnapshot } from '#shared/autopilot/state.ts';
import { AutopilotRefusal } from '../autopilot/types.ts';
import { dispatch } from './registry.ts';
import { fakeAutopilot, fakeContext } from './test-context.ts';

const certificate = { fingerprint: 'f'.repeat(64), commonName: 'ASESORIA EJEMPLO SL - B12345678' };

describe('SetAutopilotCertificates', () => {
  it("keeps an app's certificates and answers them in the snapshot, by common name", async () => {
    const autopilot = fakeAutopilot();
    const envelope = await dispatch('SetAutopilotCertificates', { app: 'notificaciones', certificates: [certificate] }, fakeContext({ autopilot }));
    if (!envelope.ok) throw new Error(envelope.error.message);
    const app = (envelope.data as AutopilotSnapshot).apps.find((each) => each.id === 'notificaciones');
    expect(app?.certificates).toEqual([certificate]);
    expect(autopilot.calls).toEqual([{ method: 'setCertificates', args: ['notificaciones', [certificate]] }]);
  });

  it('passes on a refusal with its code and message', async () => {
    const autopilot = fakeAutopilot();
    autopilot.failNext('setCertificates', new AutopilotRefusal('FORBIDDEN', 'Altas desasistidas solo admite un certificado.'));
    await expect(
      dispatch('SetAutopilotCertificates', { app: 'altas', certificates: [certificate, { ...certificate, fingerprint: 'e'.repeat(64) }] }, fakeContext({ autopilot })),
    ).resolves.toEqual({ ok: false, error: { code: 'FORBIDDEN', message: 'Altas desasistidas solo admite un certificado.' } });
  });

  it('refuses a bad fingerprint in Spanish, an app without certificates, or a missing name, and keeps nothing', async () => {
    const autopilot = fakeAutopilot();
    const ctx = fakeContext({ autopilot });
    await expect(dispatch('SetAutopilotCertificates', { app: 'altas', certificates: [{ ...certificate, fingerprint: 'ABC' }] }, ctx)).resolves.toMatchObject({
      ok: false,
      error: { code: 'BAD_ARGS', message: expect.stringContaining('La huella del certificado no es válida') },
    });
    for (const args of [
      { app: 'robots', certificates: [certificate] },
      { app: 'altas', certificates: [{ fingerprint: certificate.fingerprint, commonName: '' }] },
      { app: 'altas', certificates: Array.from({ length: 51 }, () => certificate) },
      { app: 'altas' },
    ]) {
      await expect(dispatch('SetAutopilotCertificates', args, ctx)).resolves.toMatchObject({ ok: false, error: { code: 'BAD_ARGS' } });
    }
    expect(autopilot.calls).toEqual([]);
  });
});
