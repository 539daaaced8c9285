import { describe, expect, it } from 'vitest';
import type { AutopilotSnapshot } from '#shared/autopilot/state.ts';
import { AutopilotRefusal } from '../autopilot/types.ts';
import { dispatch } from './registry.ts';
import { fakeAutopilot, fakeContext } from './test-context.ts';

describe('DeleteAutopilotTask', () => {
  it('deletes the task and answers the snapshot without it', async () => {
    const autopilot = fakeAutopilot();
    const envelope = await dispatch('DeleteAutopilotTask', { taskId: 'flow:programacion-1' }, fakeContext({ autopilot }));
    if (!envelope.ok) throw new Error(envelope.error.message);
    expect((envelope.data as AutopilotSnapshot).tasks).toEqual([]);
    expect(autopilot.calls).toEqual([{ method: 'deleteTask', args: ['flow:programacion-1'] }]);
  });

  it('passes on the refusal for a running task (FORBIDDEN) and for one that is gone (NOT_FOUND)', async () => {
    const autopilot = fakeAutopilot();
    const ctx = fakeContext({ autopilot });
    autopilot.failNext('deleteTask', new AutopilotRefusal('FORBIDDEN', 'Esta tarea se está ejecutando; espera a que termine para borrarla.'));
    await expect(dispatch('DeleteAutopilotTask', { taskId: 'flow:programacion-1' }, ctx)).resolves.toEqual({
      ok: false,
      error: { code: 'FORBIDDEN', message: 'Esta tarea se está ejecutando; espera a que termine para borrarla.' },
    });
    autopilot.failNext('deleteTask', new AutopilotRefusal('NOT_FOUND', 'Esta tarea ya no existe.'));
    await expect(dispatch('DeleteAutopilotTask', { taskId: 'flow:otra' }, ctx)).resolves.toEqual({
      ok: false,
      error: { code: 'NOT_FOUND', message: 'Esta tarea ya no existe.' },
    });
    const after = await dispatch('GetAutopilot', {}, ctx);
    expect(after.ok && (after.data as AutopilotSnapshot).tasks.map((task) => task.id)).toEqual(['flow:programacion-1']);
  });

  it('refuses an empty or missing task id without asking the autopilot', async () => {
    const autopilot = fakeAutopilot();
    const ctx = fakeContext({ autopilot });
    for (const args of [{ taskId: '' }, {}, { taskId: 'x'.repeat(201) }, { taskId: 7 }]) {
      await expect(dispatch('DeleteAutopilotTask', args, ctx)).resolves.toMatchObject({ ok: false, error: { code: 'BAD_ARGS' } });
    }
    expect(autopilot.calls).toEqual([]);
  });
});
