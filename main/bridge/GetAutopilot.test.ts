import { describe, expect, it } from 'vitest';
import { autopilotSnapshotSchema } from '#shared/autopilot/state.ts';
import { AutopilotRefusal } from '../autopilot/types.ts';
import { dispatch } from './registry.ts';
import { fakeAutopilot, fakeContext } from './test-context.ts';

describe('GetAutopilot', () => {
  it("answers this PC's apps, switches and tasks as the contract describes them", async () => {
    const autopilot = fakeAutopilot();
    const envelope = await dispatch('GetAutopilot', {}, fakeContext({ autopilot }));
    expect(envelope).toMatchObject({ ok: true });
    const snapshot = autopilotSnapshotSchema.parse(envelope.ok && envelope.data);
    expect(snapshot.apps.map((app) => app.title)).toEqual(['Robots para asesorías', 'Altas desasistidas', 'Notificaciones']);
    expect(snapshot.tasks.map((task) => task.id)).toEqual(['flow:programacion-1']);
    expect(autopilot.calls).toEqual([{ method: 'snapshot', args: [] }]);
  });

  it('passes on a refusal with its code and Spanish message', async () => {
    const autopilot = fakeAutopilot();
    autopilot.failNext('snapshot', new AutopilotRefusal('UNAVAILABLE', 'El piloto automático se está abriendo; inténtalo en unos segundos.'));
    await expect(dispatch('GetAutopilot', {}, fakeContext({ autopilot }))).resolves.toEqual({
      ok: false,
      error: { code: 'UNAVAILABLE', message: 'El piloto automático se está abriendo; inténtalo en unos segundos.' },
    });
  });

  it('hides an unexpected error behind a generic Spanish failure', async () => {
    const autopilot = fakeAutopilot();
    autopilot.failNext('snapshot', new Error('SQLITE_CORRUPT: database disk image is malformed'));
    await expect(dispatch('GetAutopilot', {}, fakeContext({ autopilot }))).resolves.toEqual({
      ok: false,
      error: { code: 'FAILED', message: 'No se ha podido completar GetAutopilot.' },
    });
  });

  it('refuses arguments it does not take, without asking the autopilot', async () => {
    const autopilot = fakeAutopilot();
    await expect(dispatch('GetAutopilot', { all: true }, fakeContext({ autopilot }))).resolves.toMatchObject({ ok: false, error: { code: 'BAD_ARGS' } });
    expect(autopilot.calls).toEqual([]);
  });
});
