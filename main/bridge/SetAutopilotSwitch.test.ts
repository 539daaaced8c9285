import { describe, expect, it } from 'vitest';
import type { AutopilotSnapshot } from '#shared/autopilot/state.ts';
import { AutopilotRefusal } from '../autopilot/types.ts';
import { dispatch } from './registry.ts';
import { fakeAutopilot, fakeContext } from './test-context.ts';

const robotsApp = (snapshot: AutopilotSnapshot) => snapshot.apps.find((app) => app.id === 'robots')!;

describe('SetAutopilotSwitch', () => {
  it('turns the general switch off and answers the snapshot after it: no app is active', async () => {
    const autopilot = fakeAutopilot();
    const ctx = fakeContext({ autopilot });
    const before = await dispatch('GetAutopilot', {}, ctx);
    expect(before.ok && robotsApp(before.data as AutopilotSnapshot).active).toBe(true);

    const envelope = await dispatch('SetAutopilotSwitch', { app: 'all', enabled: false }, ctx);
    if (!envelope.ok) throw new Error(envelope.error.message);
    const snapshot = envelope.data as AutopilotSnapshot;
    expect(snapshot.enabled).toBe(false);
    expect(snapshot.apps.map((app) => app.active)).toEqual([false, false, false]);
    expect(autopilot.calls.at(-1)).toEqual({ method: 'setSwitch', args: ['all', false] });
  });

  it("switches one app's own toggle", async () => {
    const autopilot = fakeAutopilot();
    const envelope = await dispatch('SetAutopilotSwitch', { app: 'robots', enabled: false }, fakeContext({ autopilot }));
    if (!envelope.ok) throw new Error(envelope.error.message);
    expect(robotsApp(envelope.data as AutopilotSnapshot)).toMatchObject({ enabled: false, active: false });
    expect((envelope.data as AutopilotSnapshot).enabled).toBe(true);
  });

  it('passes on the refusal of an app that cannot load yet, with its Spanish message', async () => {
    const autopilot = fakeAutopilot();
    const message = 'Altas desasistidas todavía no puede cargarse en este equipo.';
    autopilot.failNext('setSwitch', new AutopilotRefusal('UNAVAILABLE', message));
    await expect(dispatch('SetAutopilotSwitch', { app: 'altas', enabled: true }, fakeContext({ autopilot }))).resolves.toEqual({
      ok: false,
      error: { code: 'UNAVAILABLE', message },
    });
  });

  it('refuses an unknown app or a switch that is not true/false, without asking the autopilot', async () => {
    const autopilot = fakeAutopilot();
    const ctx = fakeContext({ autopilot });
    for (const args of [{ app: 'nominas', enabled: true }, { app: 'robots', enabled: 'sí' }, { app: 'robots' }, { app: 'all', enabled: true, extra: 1 }]) {
      await expect(dispatch('SetAutopilotSwitch', args, ctx)).resolves.toMatchObject({ ok: false, error: { code: 'BAD_ARGS' } });
    }
    expect(autopilot.calls).toEqual([]);
  });
});
