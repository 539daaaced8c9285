import { describe, expect, it } from 'vitest';
import type { AutopilotSnapshot } from '#shared/autopilot/state.ts';
import { AutopilotRefusal } from '../autopilot/types.ts';
import { dispatch } from './registry.ts';
import { fakeAutopilot, fakeContext } from './test-context.ts';

describe('SetAutopilotPanelOpen', () => {
  it('tells the autopilot the panel opened and closed, answering the snapshot each time', async () => {
    const autopilot = fakeAutopilot();
    const ctx = fakeContext({ host: 'electron', autopilot });
    const opened = await dispatch('SetAutopilotPanelOpen', { open: true }, ctx);
    expect(opened.ok && (opened.data as AutopilotSnapshot).looping).toBe(true);
    const closed = await dispatch('SetAutopilotPanelOpen', { open: false }, ctx);
    expect(closed.ok && (closed.data as AutopilotSnapshot).looping).toBe(false);
    expect(autopilot.calls).toEqual([
      { method: 'setPanelOpen', args: [true] },
      { method: 'setPanelOpen', args: [false] },
    ]);
  });

  it('passes on a refusal with its code and message', async () => {
    const autopilot = fakeAutopilot();
    autopilot.failNext('setPanelOpen', new AutopilotRefusal('NOT_LINKED', 'Este equipo no está conectado a ninguna cuenta.'));
    await expect(dispatch('SetAutopilotPanelOpen', { open: true }, fakeContext({ autopilot }))).resolves.toEqual({
      ok: false,
      error: { code: 'NOT_LINKED', message: 'Este equipo no está conectado a ninguna cuenta.' },
    });
  });

  it('refuses anything but true/false without asking the autopilot', async () => {
    const autopilot = fakeAutopilot();
    const ctx = fakeContext({ autopilot });
    for (const args of [{ open: 'true' }, {}, { open: 1 }]) {
      await expect(dispatch('SetAutopilotPanelOpen', args, ctx)).resolves.toMatchObject({ ok: false, error: { code: 'BAD_ARGS' } });
    }
    expect(autopilot.calls).toEqual([]);
  });
});
