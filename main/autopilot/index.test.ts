import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AutopilotSnapshot } from '#shared/autopilot/state.ts';
import { autopilotSnapshotSchema } from '#shared/autopilot/state.ts';
import { DeviceError } from '../device/errors.ts';
import { STOPPED_MESSAGE, TASK_GONE_MESSAGE, TASK_RUNNING_MESSAGE } from './index.ts';
import { autopilotHarness } from './testing/harness.ts';

let harness: ReturnType<typeof autopilotHarness>;
afterEach(async () => {
  await harness.close();
});

describe('the desktop app’s loop', () => {
  it('runs only while the panel is open; the agent’s always runs', async () => {
    harness = autopilotHarness({ host: 'electron', at: '2026-03-02T08:00:01.000Z' });
    const { server, cron, autopilot } = harness;
    server.add({ scheduledDate: '2026-03-02T08:00:00.000Z' });
    await autopilot.start();
    expect(cron.started).toBe(false);
    expect((await autopilot.snapshot()).looping).toBe(false);
    await cron.tick();
    expect(server.count('launchSlot')).toBe(0);

    expect((await autopilot.setPanelOpen(true)).looping).toBe(true);
    expect(cron.started).toBe(true);
    expect((await autopilot.setPanelOpen(false)).looping).toBe(false);
    expect(cron.started).toBe(false);

    await autopilot.setPanelOpen(true);
    await cron.tick();
    expect(server.count('launchSlot')).toBe(1);

    const agent = autopilotHarness({ host: 'agent', at: '2026-03-02T08:00:01.000Z' });
    try {
      await agent.autopilot.start();
      expect(agent.cron.started).toBe(true);
      expect((await agent.autopilot.setPanelOpen(false)).looping).toBe(true);
    } finally {
      await agent.close();
    }
  });

  it('lets go of a task when the panel closes mid-run, and follows the same run when it opens again', async () => {
    harness = autopilotHarness({ host: 'electron', at: '2026-03-02T08:00:01.000Z' });
    const { server, cron, autopilot } = harness;
    const schedule = server.add({ scheduledDate: '2026-03-02T08:00:00.000Z' });
    server.finishAfterPolls = null;
    await autopilot.start();
    await autopilot.setPanelOpen(true);
    const ticking = cron.tick();
    await vi.waitFor(() => expect(server.runs).toHaveLength(1));
    expect((await autopilot.snapshot()).tasks[0]).toMatchObject({ executionInProgress: true, canBeRemoved: false });

    await autopilot.setPanelOpen(false);
    await ticking;
    expect((await autopilot.snapshot()).tasks[0]).toMatchObject({ executionInProgress: false, done: false });

    server.finish(server.runs[0]?.runId ?? '');
    await autopilot.setPanelOpen(true);
    await cron.tick();
    expect(server.runs).toHaveLength(1);
    expect(server.schedule(schedule._id)).toBeUndefined();
    expect((await autopilot.snapshot()).tasks[0]).toMatchObject({ done: true });
  });
});

describe('the snapshot and its changes', () => {
  it('says unlinked and pulls nothing while this PC has no device link, then pulls once linked', async () => {
    harness = autopilotHarness({ at: '2026-03-02T08:00:01.000Z', linked: false });
    const { server, cron, autopilot, link, timers } = harness;
    server.add({ scheduledDate: '2026-03-02T08:00:00.000Z' });
    await autopilot.start();
    const snapshot = await autopilot.snapshot();
    expect(snapshot).toMatchObject({ linked: false, tasks: [] });
    expect(snapshot.apps[0]).toMatchObject({ active: true, nextRefreshAt: null });
    await cron.tick();
    expect(server.calls).toEqual([]);
    expect(timers.count).toBe(0);

    link.setLinked(true);
    await vi.waitFor(async () => expect((await autopilot.snapshot()).tasks).toHaveLength(1));
    expect((await autopilot.snapshot()).linked).toBe(true);
    await cron.tick();
    expect(server.count('launchSlot')).toBe(1);
  });

  it('tells its listeners when a task starts and when it ends, with snapshots the contract accepts', async () => {
    harness = autopilotHarness({ at: '2026-03-02T08:00:01.000Z' });
    const { server, cron, autopilot } = harness;
    server.add({ scheduledDate: '2026-03-02T08:00:00.000Z', repeat: true, every: 2, interval: 'days' });
    const seen: AutopilotSnapshot[] = [];
    const unsubscribe = autopilot.onChange((snapshot) => seen.push(snapshot));
    await autopilot.start();
    await cron.tick();
    unsubscribe();
    for (const snapshot of seen) expect(autopilotSnapshotSchema.safeParse(snapshot).success).toBe(true);
    const states = seen.map((snapshot) => snapshot.tasks[0] && [snapshot.tasks[0].executionInProgress, snapshot.tasks[0].scheduledDate]);
    expect(states).toContainEqual([true, '2026-03-02T08:00:00.000Z']);
    expect(states.at(-1)).toEqual([false, '2026-03-04T08:00:00.000Z']);
    expect(seen.at(-1)?.tasks[0]).toMatchObject({ repeat: { every: 2, interval: 'days' }, title: 'Descargar justificantes', description: 'En OFICINA-01' });
  });

  it('ticks every second with node-cron when the host gives no cron, and stops ticking when stopped', async () => {
    harness = autopilotHarness({ at: '2026-03-02T08:00:01.000Z' });
    const schedule = harness.server.add({ scheduledDate: '2026-03-02T08:00:00.000Z', repeat: true, every: 1, interval: 'hours' });
    const withNodeCron = harness.make({ cron: undefined });
    await withNodeCron.start();
    await vi.waitFor(() => expect(harness.server.schedule(schedule._id)?.scheduledDate).toBe('2026-03-02T09:00:00.000Z'), { timeout: 3000 });
    await withNodeCron.stop();
    harness.at('2026-03-02T09:00:01.000Z');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(harness.server.count('launchSlot')).toBe(1);
  });

  it('refuses everything once stopped', async () => {
    harness = autopilotHarness({ at: '2026-03-02T08:00:01.000Z' });
    await harness.autopilot.start();
    await harness.autopilot.stop();
    await expect(harness.autopilot.snapshot()).rejects.toMatchObject({ code: 'FAILED', message: STOPPED_MESSAGE });
  });
});

describe('deleting a task', () => {
  it('deletes the schedule on the server at the date it has, then forgets the task', async () => {
    harness = autopilotHarness({ at: '2026-03-02T07:00:00.000Z' });
    const schedule = harness.server.add({ scheduledDate: '2026-03-02T08:00:00.000Z' });
    await harness.autopilot.start();
    const snapshot = await harness.autopilot.deleteTask(`flow:${schedule._id}`);
    expect(snapshot.tasks).toEqual([]);
    expect(harness.server.schedule(schedule._id)).toBeUndefined();
    expect(harness.server.calls.find((entry) => entry.call === 'removeSchedule')?.body).toEqual({ from: '2026-03-02T08:00:00.000Z' });
    await expect(harness.autopilot.deleteTask(`flow:${schedule._id}`)).rejects.toMatchObject({ code: 'NOT_FOUND', message: TASK_GONE_MESSAGE });
  });

  it('refuses while the robot is running, and touches nothing', async () => {
    harness = autopilotHarness({ at: '2026-03-02T08:00:01.000Z' });
    const { server, cron, autopilot } = harness;
    const schedule = server.add({ scheduledDate: '2026-03-02T08:00:00.000Z' });
    server.finishAfterPolls = null;
    await autopilot.start();
    const ticking = cron.tick();
    await vi.waitFor(() => expect(server.runs).toHaveLength(1));
    await expect(autopilot.deleteTask(`flow:${schedule._id}`)).rejects.toMatchObject({ code: 'FORBIDDEN', message: TASK_RUNNING_MESSAGE });
    expect(server.count('removeSchedule')).toBe(0);
    server.finish(server.runs[0]?.runId ?? '');
    await ticking;
  });

  it('keeps the task, with the reason, when the server cannot be reached', async () => {
    harness = autopilotHarness({ at: '2026-03-02T07:00:00.000Z' });
    const schedule = harness.server.add({ scheduledDate: '2026-03-02T08:00:00.000Z' });
    await harness.autopilot.start();
    harness.server.failNext('removeSchedule');
    await expect(harness.autopilot.deleteTask(`flow:${schedule._id}`)).rejects.toMatchObject({ code: 'FAILED', message: expect.stringContaining('No se puede contactar') });
    expect((await harness.autopilot.snapshot()).tasks[0]).toMatchObject({ removing: false, canBeRemoved: true });
    expect(harness.server.schedule(schedule._id)).toBeDefined();
  });

  it('deletes a schedule the user moved meanwhile at its new date, and one already gone just goes', async () => {
    harness = autopilotHarness({ at: '2026-03-02T07:00:00.000Z' });
    const moved = harness.server.add({ scheduledDate: '2026-03-02T08:00:00.000Z' });
    const gone = harness.server.add({ scheduledDate: '2026-03-02T09:00:00.000Z' });
    await harness.autopilot.start();
    harness.server.move(moved._id, '2026-03-05T08:00:00.000Z');
    harness.server.delete(gone._id);
    await harness.autopilot.deleteTask(`flow:${moved._id}`);
    const snapshot = await harness.autopilot.deleteTask(`flow:${gone._id}`);
    expect(snapshot.tasks).toEqual([]);
    expect(harness.server.schedule(moved._id)).toBeUndefined();
  });

  it('asks for a device link to delete a schedule on the server', async () => {
    harness = autopilotHarness({ at: '2026-03-02T07:00:00.000Z' });
    const schedule = harness.server.add({ scheduledDate: '2026-03-02T08:00:00.000Z' });
    await harness.autopilot.start();
    harness.link.setLinked(false);
    await expect(harness.autopilot.deleteTask(`flow:${schedule._id}`)).rejects.toMatchObject({ code: 'NOT_LINKED' });
    expect((await harness.autopilot.snapshot()).tasks).toHaveLength(1);
    expect(harness.server.schedule(schedule._id)).toBeDefined();
    // The server refusing the token is told apart from an outage.
    harness.link.setLinked(true);
    harness.server.failNext('removeSchedule', 1, new DeviceError('token-refused', 'Ya no está conectado'));
    await expect(harness.autopilot.deleteTask(`flow:${schedule._id}`)).rejects.toMatchObject({ code: 'NOT_LINKED', message: 'Ya no está conectado' });
  });
});
