import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PendingSummary } from '#shared/api/altas.ts';
import type { AutopilotSnapshot } from '#shared/autopilot/state.ts';
import { autopilotSnapshotSchema } from '#shared/autopilot/state.ts';
import type { BridgeResult } from '#shared/bridge/contract.ts';
import { ALTAS_RETRY_AFTER_MS, ALTAS_TASK_ID, ALTAS_TASK_TITLE, type AltasForAutopilot } from './altas-app.ts';
import { autopilotHarness } from './testing/harness.ts';

let harness: ReturnType<typeof autopilotHarness>;
afterEach(async () => {
  await harness.close();
});

const CERTIFICATE = { fingerprint: 'b'.repeat(64), commonName: 'ASESORIA LOPEZ SL' };
const OTHER = { fingerprint: 'c'.repeat(64), commonName: 'GESTORIA SUR SL' };
const appOf = (snapshot: AutopilotSnapshot, id: string) => snapshot.apps.find((app) => app.id === id);
const altasTasks = (snapshot: AutopilotSnapshot) => snapshot.tasks.filter((task) => task.app === 'altas');

/** The altas service as the autopilot sees it: the server's pending list, RED registering all but `refused`. */
function fakeAltas(titles: Record<string, string>, refused: readonly string[] = []) {
  const pending: PendingSummary = { red: Object.entries(titles).map(([_id, title]) => ({ _id, title })), a3: [] };
  const calls: { ids: readonly string[]; certificate: string }[] = [];
  let failure: Error | null = null;
  const altas: AltasForAutopilot = {
    pending: async () => structuredClone(pending),
    syncToRed: async (ids, certificate): Promise<BridgeResult<'SyncSubmissions'>> => {
      calls.push({ ids, certificate });
      if (failure) throw failure;
      pending.red = pending.red.filter((each) => !ids.includes(each._id) || refused.includes(each._id));
      const results = ids.map((submissionId) =>
        refused.includes(submissionId)
          ? { submissionId, state: 'error' as const, message: '#DIL 3251: EL TRABAJADOR YA FIGURA EN ALTA' }
          : { submissionId, state: 'registered' as const, message: 'Alta registrada en RED' },
      );
      const registered = results.filter((each) => each.state === 'registered').length;
      return { results, registered, failed: results.length - registered };
    },
  };
  return { altas, pending, calls, failWith: (error: Error | null) => void (failure = error) };
}

describe("the 'Altas desasistidas' app", () => {
  it('is available; with a certificate it loads one task while RED registrations are pending, listing them', async () => {
    harness = autopilotHarness({ at: '2026-03-02T08:00:00.000Z' });
    const world = fakeAltas({ s1: 'ANA PEREZ - TALLERES PEREZ SL', s2: 'LUIS GOMEZ - BAR SOL SL' });
    const autopilot = harness.make({ altas: world.altas });
    await autopilot.start();
    let snapshot = await autopilot.setSwitch('altas', true);
    expect(appOf(snapshot, 'altas')).toMatchObject({ available: true, unavailableReason: null, enabled: true, active: false });
    expect(altasTasks(snapshot)).toEqual([]);

    snapshot = await autopilot.setCertificates('altas', [CERTIFICATE, OTHER]);
    expect(appOf(snapshot, 'altas')?.active).toBe(true);
    await vi.waitFor(async () => expect(altasTasks(await autopilot.snapshot())).toHaveLength(1));
    snapshot = await autopilot.snapshot();
    expect(autopilotSnapshotSchema.safeParse(snapshot).success).toBe(true);
    expect(altasTasks(snapshot)[0]).toMatchObject({
      id: ALTAS_TASK_ID,
      title: ALTAS_TASK_TITLE,
      description: 'Registra en Sistema RED las 2 altas recibidas con el certificado de la aplicación',
      scheduledDate: '2026-03-02T08:00:00.000Z',
      items: ['ANA PEREZ - TALLERES PEREZ SL', 'LUIS GOMEZ - BAR SOL SL'],
      info: [{ text: '2 altas pendientes', icon: 'inputs', tooltip: null }],
      scheduleId: null,
      canBeRemoved: true,
    });

    // A refresh with another registration keeps the task's date and lists it too.
    world.pending.red.push({ _id: 's3', title: 'EVA RUIZ - BAR SOL SL' });
    harness.at(20_000);
    harness.timers.fire();
    await vi.waitFor(async () => expect(altasTasks(await autopilot.snapshot())[0]?.items).toHaveLength(3));
    expect(altasTasks(await autopilot.snapshot())[0]?.scheduledDate).toBe('2026-03-02T08:00:00.000Z');
  });

  it('the loop registers every pending alta with the first certificate and removes the task; nothing pending, no task', async () => {
    harness = autopilotHarness({ at: '2026-03-02T08:00:00.000Z' });
    const world = fakeAltas({ s1: 'ANA PEREZ - TALLERES PEREZ SL' });
    const autopilot = harness.make({ altas: world.altas });
    await autopilot.setSwitch('altas', true);
    await autopilot.setCertificates('altas', [CERTIFICATE, OTHER]);
    await autopilot.start();
    await vi.waitFor(async () => expect(altasTasks(await autopilot.snapshot())).toHaveLength(1));

    await harness.cron.tick();
    expect(world.calls).toEqual([{ ids: ['s1'], certificate: CERTIFICATE.fingerprint }]);
    expect(altasTasks(await autopilot.snapshot())).toEqual([]);
    expect(harness.logs).toContain('Piloto automático: 1 alta(s) registrada(s) en RED con ASESORIA LOPEZ SL; 0 con error.');

    // The next load finds nothing pending: still no task, and no call to RED.
    harness.timers.fire();
    await harness.cron.tick();
    expect(altasTasks(await autopilot.snapshot())).toEqual([]);
    expect(world.calls).toHaveLength(1);
  });

  it('a task whose registrations were all done elsewhere goes at the next load; RED unreachable keeps it for a retry', async () => {
    harness = autopilotHarness({ at: '2026-03-02T08:00:00.000Z' });
    const world = fakeAltas({ s1: 'ANA PEREZ - TALLERES PEREZ SL' });
    const autopilot = harness.make({ altas: world.altas });
    await autopilot.setSwitch('altas', true);
    await autopilot.setCertificates('altas', [CERTIFICATE]);
    await autopilot.start();
    await vi.waitFor(async () => expect(altasTasks(await autopilot.snapshot())).toHaveLength(1));

    world.failWith(new Error('RED Online no responde.'));
    await harness.cron.tick();
    expect(altasTasks(await autopilot.snapshot())).toMatchObject([{ id: ALTAS_TASK_ID, executionInProgress: false }]);
    expect(harness.logs.some((line) => line.includes('RED Online no responde.'))).toBe(true);

    world.pending.red = [];
    harness.timers.fire();
    await vi.waitFor(async () => expect(altasTasks(await autopilot.snapshot())).toEqual([]));
  });

  it('an alta RED refused makes no task again before the hour is up (no asking RED the same every 20 s)', async () => {
    harness = autopilotHarness({ at: '2026-03-02T08:00:00.000Z' });
    const world = fakeAltas({ s1: 'ANA PEREZ - TALLERES PEREZ SL', s2: 'LUIS GOMEZ - BAR SOL SL' }, ['s1']);
    const autopilot = harness.make({ altas: world.altas });
    await autopilot.setSwitch('altas', true);
    await autopilot.setCertificates('altas', [CERTIFICATE]);
    await autopilot.start();
    await vi.waitFor(async () => expect(altasTasks(await autopilot.snapshot())).toHaveLength(1));
    await harness.cron.tick();
    expect(world.calls).toEqual([{ ids: ['s1', 's2'], certificate: CERTIFICATE.fingerprint }]);
    expect(harness.logs).toContain('Piloto automático: 1 alta(s) registrada(s) en RED con ASESORIA LOPEZ SL; 1 con error.');

    harness.at(20_000);
    harness.timers.fire();
    await harness.cron.tick();
    expect(altasTasks(await autopilot.snapshot())).toEqual([]);
    expect(world.calls).toHaveLength(1);

    // A new alta is registered meanwhile, without the refused one.
    world.pending.red.push({ _id: 's3', title: 'EVA RUIZ - BAR SOL SL' });
    harness.timers.fire();
    await vi.waitFor(async () => expect(altasTasks(await autopilot.snapshot())[0]?.items).toEqual(['EVA RUIZ - BAR SOL SL']));
    await harness.cron.tick();
    expect(world.calls.at(-1)?.ids).toEqual(['s3']);

    // An hour later the refused one is tried again (the advisor may have corrected it).
    harness.at(ALTAS_RETRY_AFTER_MS);
    harness.timers.fire();
    await vi.waitFor(async () => expect(altasTasks(await autopilot.snapshot())[0]?.items).toEqual(['ANA PEREZ - TALLERES PEREZ SL']));
  });

  it('without the altas service (an older host) the app loads nothing', async () => {
    harness = autopilotHarness({ at: '2026-03-02T08:00:00.000Z' });
    await harness.autopilot.setSwitch('altas', true);
    const snapshot = await harness.autopilot.setCertificates('altas', [CERTIFICATE]);
    expect(appOf(snapshot, 'altas')).toMatchObject({ active: true, nextRefreshAt: null });
    expect(altasTasks(snapshot)).toEqual([]);
  });
});
