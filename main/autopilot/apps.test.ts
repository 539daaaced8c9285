import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AutopilotSnapshot } from '#shared/autopilot/state.ts';
import { autopilotSnapshotSchema, needsCertificateWarning } from '#shared/autopilot/state.ts';
import { robotsTaskFrom } from './apps.ts';
import { autopilotHarness } from './testing/harness.ts';

let harness: ReturnType<typeof autopilotHarness>;
afterEach(async () => {
  await harness.close();
});

const appOf = (snapshot: AutopilotSnapshot, id: string) => snapshot.apps.find((app) => app.id === id);
const CERTIFICATE = { fingerprint: 'b'.repeat(64), commonName: 'ASESORIA LOPEZ SL' };

describe('a scheduled flow as a task', () => {
  it('is titled with the flow, placed on its machine, and shows who scheduled it, its inputs and its files', () => {
    harness = autopilotHarness({ at: '2026-03-02T08:00:00.000Z' });
    const schedule = harness.server.add({
      scheduledDate: '2026-03-02T09:00:00+01:00',
      repeat: true,
      every: 3,
      interval: 'hours',
      flowInputs: {
        ccc: '28123456789',
        soloPendientes: true,
        nominas: [{ uploadId: '6f1d1c1e-2b3a-4c5d-8e9f-0a1b2c3d4e5f', name: 'nominas-marzo.xlsx' }],
      },
    });
    expect(robotsTaskFrom(schedule)).toEqual({
      id: `flow:${schedule._id}`,
      scheduleId: schedule._id,
      title: 'Descargar justificantes',
      description: 'En OFICINA-01',
      scheduledDate: '2026-03-02T09:00:00+01:00',
      repeat: { every: 3, interval: 'hours' },
      info: [
        { text: 'Ana', icon: 'user', tooltip: 'Programado por ana@asesoria.example' },
        { text: '3 datos', icon: 'inputs', tooltip: 'ccc: 28123456789 · soloPendientes: sí · nominas: nominas-marzo.xlsx' },
      ],
      items: ['nominas-marzo.xlsx'],
    });
  });
});

describe('the apps', () => {
  it('lists the three apps in Spanish, all available; a certificate app switched on without a certificate stays inactive and says so', async () => {
    harness = autopilotHarness({ at: '2026-03-02T08:00:00.000Z' });
    const snapshot = await harness.autopilot.snapshot();
    expect(autopilotSnapshotSchema.safeParse(snapshot).success).toBe(true);
    expect(snapshot.apps.map((app) => [app.title, app.available, app.needsCertificates, app.unavailableReason])).toEqual([
      ['Robots para asesorías', true, false, null],
      ['Altas desasistidas', true, true, null],
      ['Notificaciones', true, true, null],
    ]);

    await harness.autopilot.setSwitch('altas', true);
    const after = await harness.autopilot.setSwitch('notificaciones', true);
    expect(after.apps.map((app) => app.enabled)).toEqual([true, true, true]);
    const notifications = appOf(after, 'notificaciones')!;
    expect(notifications.active).toBe(false);
    expect(needsCertificateWarning(notifications)).toBe(true);
  });

  it('keeps the certificates chosen for an app that is switched off, once each, and it stays inactive', async () => {
    harness = autopilotHarness({ at: '2026-03-02T08:00:00.000Z' });
    const snapshot = await harness.autopilot.setCertificates('notificaciones', [CERTIFICATE, CERTIFICATE, { fingerprint: 'c'.repeat(64), commonName: 'GESTORIA SUR SL' }]);
    expect(appOf(snapshot, 'notificaciones')).toMatchObject({
      certificates: [CERTIFICATE, { fingerprint: 'c'.repeat(64), commonName: 'GESTORIA SUR SL' }],
      active: false,
      nextRefreshAt: null,
    });
    await harness.autopilot.stop();
    const reopened = harness.make();
    expect(appOf(await reopened.snapshot(), 'notificaciones')?.certificates).toHaveLength(2);
  });

  it('loads the robots once when they become active and refreshes them on a timer, which stops when they are switched off', async () => {
    harness = autopilotHarness({ at: '2026-03-02T08:00:00.000Z' });
    const { server, timers, autopilot } = harness;
    server.add({ scheduledDate: '2026-03-02T10:00:00.000Z' });
    await autopilot.start();
    expect(server.count('schedules')).toBe(1);
    expect(timers.count).toBe(1);
    let snapshot = await autopilot.snapshot();
    expect(appOf(snapshot, 'robots')).toMatchObject({ active: true, nextRefreshAt: '2026-03-02T08:00:20.000Z', problem: null, refreshEveryMs: 20_000 });
    expect(snapshot.tasks).toHaveLength(1);

    // A schedule made in the web app arrives with the next refresh.
    server.add({ scheduledDate: '2026-03-02T11:00:00.000Z' });
    harness.at(20_000);
    timers.fire();
    await vi.waitFor(async () => expect((await autopilot.snapshot()).tasks).toHaveLength(2));
    expect(appOf(await autopilot.snapshot(), 'robots')?.nextRefreshAt).toBe('2026-03-02T08:00:40.000Z');

    snapshot = await autopilot.setSwitch('robots', false);
    expect(appOf(snapshot, 'robots')).toMatchObject({ enabled: false, active: false, nextRefreshAt: null });
    expect(timers.count).toBe(0);

    // The general switch off keeps the app's own switch but makes it inactive.
    await autopilot.setSwitch('robots', true);
    await vi.waitFor(() => expect(server.count('schedules')).toBe(3));
    expect(timers.count).toBe(1);
    snapshot = await autopilot.setSwitch('all', false);
    expect(snapshot.enabled).toBe(false);
    expect(appOf(snapshot, 'robots')).toMatchObject({ enabled: true, active: false, nextRefreshAt: null });
    expect(timers.count).toBe(0);
  });

  it('runs nothing of an app that is switched off, even when it is due', async () => {
    harness = autopilotHarness({ at: '2026-03-02T08:00:01.000Z' });
    harness.server.add({ scheduledDate: '2026-03-02T08:00:00.000Z' });
    await harness.autopilot.start();
    await harness.autopilot.setSwitch('all', false);
    await harness.cron.tick();
    expect(harness.server.count('launchSlot')).toBe(0);
    await harness.autopilot.setSwitch('all', true);
    await harness.cron.tick();
    expect(harness.server.count('launchSlot')).toBe(1);
  });

  it('says why the robots could not load, and clears it once they do', async () => {
    harness = autopilotHarness({ at: '2026-03-02T08:00:00.000Z' });
    harness.server.failNext('schedules');
    await harness.autopilot.start();
    expect(appOf(await harness.autopilot.snapshot(), 'robots')?.problem).toContain('No se puede contactar con el servidor');
    harness.timers.fire();
    await vi.waitFor(async () => expect(appOf(await harness.autopilot.snapshot(), 'robots')?.problem).toBeNull());
  });
});
