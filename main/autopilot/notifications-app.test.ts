import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AutopilotSnapshot } from '#shared/autopilot/state.ts';
import { needsCertificateWarning, AUTOPILOT_TEXT } from '#shared/autopilot/state.ts';
import type { UpdateResult } from '../dehu/types.ts';
import { NOTIFICATIONS_RECHECK_MS, NOTIFICATIONS_TASK_ID, NOTIFICATIONS_TASK_TITLE, type DehuForAutopilot } from './notifications-app.ts';
import { autopilotHarness } from './testing/harness.ts';

let harness: ReturnType<typeof autopilotHarness>;
afterEach(async () => {
  await harness.close();
});

const A = { fingerprint: 'a'.repeat(64), commonName: 'EMPRESA A SL' };
const B = { fingerprint: 'b'.repeat(64), commonName: 'EMPRESA B SL' };
const START = '2026-03-02T08:00:00.000Z';
const appOf = (snapshot: AutopilotSnapshot) => snapshot.apps.find((app) => app.id === 'notificaciones')!;
const tasksOf = (snapshot: AutopilotSnapshot) => snapshot.tasks.filter((task) => task.app === 'notificaciones');

function fakeDehu() {
  const calls: (readonly string[] | undefined)[] = [];
  let failure: Error | null = null;
  const dehu: DehuForAutopilot = {
    update: async ({ certificates } = {}): Promise<UpdateResult> => {
      calls.push(certificates);
      if (failure) throw failure;
      return { certificates: (certificates ?? []).map((fingerprint) => ({ fingerprint, commonName: fingerprint.slice(0, 4), state: 'done', found: 2, added: 1, message: null })) };
    },
  };
  return { dehu, calls, failWith: (error: Error | null) => void (failure = error) };
}

describe("the 'Notificaciones' app", () => {
  it('without a certificate it is inactive, makes no task and the panel warns', async () => {
    harness = autopilotHarness({ at: START });
    const world = fakeDehu();
    const autopilot = harness.make({ dehu: world.dehu });
    await autopilot.start();
    const snapshot = await autopilot.setSwitch('notificaciones', true);
    expect(appOf(snapshot)).toMatchObject({ available: true, enabled: true, active: false, certificates: [] });
    expect(needsCertificateWarning(appOf(snapshot))).toBe(true);
    expect(AUTOPILOT_TEXT.certificateNeeded).toBe('Añade un certificado para activar esta función');
    harness.timers.fire();
    await harness.cron.tick();
    expect(tasksOf(await autopilot.snapshot())).toEqual([]);
    expect(world.calls).toEqual([]);
  });

  it('active: a task due at once; a run updates the app’s certificates and the next task is due 10 minutes after it ended, not before', async () => {
    harness = autopilotHarness({ at: START });
    const world = fakeDehu();
    const autopilot = harness.make({ dehu: world.dehu });
    await autopilot.setSwitch('notificaciones', true);
    await autopilot.setCertificates('notificaciones', [A, B]);
    await autopilot.start();
    await vi.waitFor(async () => expect(tasksOf(await autopilot.snapshot())).toHaveLength(1));
    expect(tasksOf(await autopilot.snapshot())[0]).toMatchObject({
      id: NOTIFICATIONS_TASK_ID,
      title: NOTIFICATIONS_TASK_TITLE,
      scheduledDate: START,
      items: ['EMPRESA A SL', 'EMPRESA B SL'],
      scheduleId: null,
    });

    // A refresh before the run keeps its date.
    harness.at(20_000);
    harness.timers.fire();
    await vi.waitFor(async () => expect(tasksOf(await autopilot.snapshot())[0]?.scheduledDate).toBe(START));

    harness.at(5_000);
    const ranAt = harness.now().getTime();
    await harness.cron.tick();
    expect(world.calls).toEqual([[A.fingerprint, B.fingerprint]]);
    expect(harness.logs).toContain('Piloto automático: notificaciones DEHÚ de 2 de 2 certificado(s) actualizadas; 2 nueva(s).');
    const nextAt = new Date(ranAt + NOTIFICATIONS_RECHECK_MS).toISOString();
    await vi.waitFor(async () => expect(tasksOf(await autopilot.snapshot())).toMatchObject([{ id: NOTIFICATIONS_TASK_ID, scheduledDate: nextAt, done: false }]));

    // Refreshes keep it there; the loop leaves it alone until it is due.
    harness.at(NOTIFICATIONS_RECHECK_MS - 1_000);
    harness.timers.fire();
    await harness.cron.tick();
    expect(world.calls).toHaveLength(1);
    expect(tasksOf(await autopilot.snapshot())[0]?.scheduledDate).toBe(nextAt);

    harness.at(1_000);
    await harness.cron.tick();
    expect(world.calls).toHaveLength(2);
  });

  it('a run that could not ask anything keeps the task for the loop’s retry', async () => {
    harness = autopilotHarness({ at: START });
    const world = fakeDehu();
    const autopilot = harness.make({ dehu: world.dehu });
    await autopilot.setSwitch('notificaciones', true);
    await autopilot.setCertificates('notificaciones', [A]);
    await autopilot.start();
    await vi.waitFor(async () => expect(tasksOf(await autopilot.snapshot())).toHaveLength(1));
    world.failWith(new Error('No se puede contactar con el servidor.'));
    await harness.cron.tick();
    expect(tasksOf(await autopilot.snapshot())).toMatchObject([{ id: NOTIFICATIONS_TASK_ID, executionInProgress: false }]);
    expect(harness.logs.some((line) => line.includes('No se puede contactar con el servidor.'))).toBe(true);
  });
});
