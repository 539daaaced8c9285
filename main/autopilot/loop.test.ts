import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeviceError } from '../device/errors.ts';
import { UNREACHABLE_RETRY_MS } from './loop.ts';
import { CACHE_FILE_NAME, TaskCache } from './task-cache.ts';
import { autopilotHarness } from './testing/harness.ts';

let harness: ReturnType<typeof autopilotHarness>;
afterEach(async () => {
  await harness.close();
});

/** The cache's view of a task, through the snapshot the panel gets. */
async function taskOf(scheduleId: string) {
  return (await harness.autopilot.snapshot()).tasks.find((task) => task.scheduleId === scheduleId);
}

describe('a one-off scheduled robot', () => {
  it('runs once at its time, is deleted on the server, and shows done until the day ends', async () => {
    harness = autopilotHarness({ at: '2026-03-02T07:59:59.000Z' });
    const { server, autopilot, cron } = harness;
    const schedule = server.add({ scheduledDate: '2026-03-02T08:00:00.000Z' });
    await autopilot.start();
    expect(cron.started).toBe(true);

    await cron.tick();
    expect(server.count('launchSlot')).toBe(0);

    harness.at('2026-03-02T08:00:00.400Z');
    await cron.tick();
    expect(server.calls.filter((entry) => entry.call !== 'slotRun').map((entry) => entry.call)).toEqual(['schedules', 'checkSchedule', 'launchSlot', 'removeSchedule']);
    expect(server.calls.find((entry) => entry.call === 'launchSlot')?.body).toEqual({ scheduledDate: '2026-03-02T08:00:00.000Z' });
    expect(server.calls.find((entry) => entry.call === 'removeSchedule')?.body).toEqual({ from: '2026-03-02T08:00:00.000Z' });
    expect(server.schedule(schedule._id)).toBeUndefined();
    expect(server.runs).toHaveLength(1);
    expect(await taskOf(schedule._id)).toMatchObject({ done: true, executionInProgress: false, runId: server.runs[0]?.runId, canBeRemoved: true });

    // Later ticks and refreshes do not run it again.
    harness.at(3_600_000);
    await cron.tick();
    harness.timers.fire();
    await cron.tick();
    expect(server.count('launchSlot')).toBe(1);
    expect(await taskOf(schedule._id)).toMatchObject({ done: true });

    harness.at('2026-03-02T23:00:01.000Z'); // 00:00:01 in Madrid, the next day
    expect(await taskOf(schedule._id)).toBeUndefined();
  });
});

describe('a repeating scheduled robot', () => {
  /** Runs the slot due at the clock and answers the date the server moved it to. */
  async function runSlotAt(instant: string, scheduleId: string): Promise<string | undefined> {
    harness.at(instant);
    await harness.cron.tick();
    return harness.server.schedule(scheduleId)?.scheduledDate;
  }

  it('keeps 09:00 on the Madrid wall clock across the spring and autumn changes', async () => {
    harness = autopilotHarness({ at: '2026-03-28T07:00:00.000Z' });
    const spring = harness.server.add({ scheduledDate: '2026-03-28T08:00:00.000Z', repeat: true, every: 1, interval: 'days' });
    await harness.autopilot.start();
    expect(await runSlotAt('2026-03-28T08:00:01.000Z', spring._id)).toBe('2026-03-29T07:00:00.000Z'); // 09:00 CET -> 09:00 CEST
    expect((await taskOf(spring._id))?.scheduledDate).toBe('2026-03-29T07:00:00.000Z');
    expect(await runSlotAt('2026-03-29T07:00:01.000Z', spring._id)).toBe('2026-03-30T07:00:00.000Z');
    harness.server.delete(spring._id);

    const autumn = harness.server.add({ scheduledDate: '2026-10-24T07:00:00.000Z', repeat: true, every: 1, interval: 'days' });
    harness.at('2026-10-24T06:00:00.000Z');
    harness.timers.fire();
    await vi.waitFor(async () => expect(await taskOf(autumn._id)).toBeDefined());
    expect(await runSlotAt('2026-10-24T07:00:01.000Z', autumn._id)).toBe('2026-10-25T08:00:00.000Z'); // 09:00 CEST -> 09:00 CET
    expect(await runSlotAt('2026-10-25T08:00:01.000Z', autumn._id)).toBe('2026-10-26T08:00:00.000Z');
    expect(harness.server.runs.map((run) => run.scheduledDate)).toEqual([
      '2026-03-28T08:00:00.000Z',
      '2026-03-29T07:00:00.000Z',
      '2026-10-24T07:00:00.000Z',
      '2026-10-25T08:00:00.000Z',
    ]);
  });

  it('moves a monthly robot of January 31 to the end of February', async () => {
    harness = autopilotHarness({ at: '2026-01-31T08:00:00.000Z' });
    const monthly = harness.server.add({ scheduledDate: '2026-01-31T09:00:00.000Z', repeat: true, every: 1, interval: 'months' });
    await harness.autopilot.start();
    expect(await runSlotAt('2026-01-31T09:00:02.000Z', monthly._id)).toBe('2026-02-28T09:00:00.000Z');
    expect(harness.server.calls.find((entry) => entry.call === 'advanceSchedule')?.body).toEqual({ from: '2026-01-31T09:00:00.000Z', to: '2026-02-28T09:00:00.000Z' });
  });

  it('runs a slot missed for three days once, then waits for its next future date', async () => {
    harness = autopilotHarness({ at: '2026-03-05T10:00:00.000Z' });
    const daily = harness.server.add({ scheduledDate: '2026-03-02T08:00:00.000Z', repeat: true, every: 1, interval: 'days' });
    await harness.autopilot.start();
    await harness.cron.tick();
    await harness.cron.tick();
    harness.at(60_000);
    await harness.cron.tick();
    expect(harness.server.runs.map((run) => run.scheduledDate)).toEqual(['2026-03-02T08:00:00.000Z']);
    expect(harness.server.schedule(daily._id)?.scheduledDate).toBe('2026-03-06T08:00:00.000Z');
  });
});

describe('what can go wrong', () => {
  it('changes nothing after a 299 run and launches the slot again once the delay has passed', async () => {
    harness = autopilotHarness({ at: '2026-03-02T08:00:01.000Z', retryAfterAbortMs: 60_000 });
    const { server, cron } = harness;
    const schedule = server.add({ scheduledDate: '2026-03-02T08:00:00.000Z', repeat: true, every: 1, interval: 'days' });
    await harness.autopilot.start();
    server.endStatus = 299;
    await cron.tick();
    expect(server.runs).toHaveLength(1);
    expect(server.count('advanceSchedule') + server.count('removeSchedule')).toBe(0);
    expect(server.schedule(schedule._id)?.scheduledDate).toBe('2026-03-02T08:00:00.000Z');
    expect(await taskOf(schedule._id)).toMatchObject({ scheduledDate: '2026-03-02T08:00:00.000Z', done: false, executionInProgress: false });

    harness.at(59_000);
    await cron.tick();
    expect(server.count('launchSlot')).toBe(1);

    server.endStatus = 200;
    harness.at(1_000);
    await cron.tick();
    expect(server.runs.map((run) => [run.scheduledDate, run.launchStatus])).toEqual([
      ['2026-03-02T08:00:00.000Z', 299],
      ['2026-03-02T08:00:00.000Z', 200],
    ]);
    expect(server.schedule(schedule._id)?.scheduledDate).toBe('2026-03-03T08:00:00.000Z');
  });

  it('drops a task whose schedule is gone from the server, launching nothing', async () => {
    harness = autopilotHarness({ at: '2026-03-02T08:00:01.000Z' });
    const schedule = harness.server.add({ scheduledDate: '2026-03-02T08:00:00.000Z' });
    await harness.autopilot.start();
    harness.server.delete(schedule._id);
    await harness.cron.tick();
    expect(harness.server.count('checkSchedule')).toBe(1);
    expect(harness.server.count('launchSlot')).toBe(0);
    expect(await taskOf(schedule._id)).toBeUndefined();
  });

  it('takes the new date of a schedule the user moved, and runs it then, not now', async () => {
    harness = autopilotHarness({ at: '2026-03-02T08:00:01.000Z' });
    const schedule = harness.server.add({ scheduledDate: '2026-03-02T08:00:00.000Z' });
    await harness.autopilot.start();
    harness.server.move(schedule._id, '2026-03-02T12:00:00.000Z');
    await harness.cron.tick();
    expect(harness.server.count('launchSlot')).toBe(0);
    expect(await taskOf(schedule._id)).toMatchObject({ scheduledDate: '2026-03-02T12:00:00.000Z', executionInProgress: false });
    harness.at('2026-03-02T12:00:00.000Z');
    await harness.cron.tick();
    expect(harness.server.runs.map((run) => run.scheduledDate)).toEqual(['2026-03-02T12:00:00.000Z']);
  });

  it('resyncs when the server says at launch that the schedule moved', async () => {
    harness = autopilotHarness({ at: '2026-03-02T08:00:01.000Z' });
    const schedule = harness.server.add({ scheduledDate: '2026-03-02T08:00:00.000Z' });
    await harness.autopilot.start();
    // It moves between the check and the launch.
    const launch = harness.server.client.launchSlot;
    harness.server.client.launchSlot = async (id, date) => {
      harness.server.move(id, '2026-03-02T15:00:00.000Z');
      return launch(id, date);
    };
    await harness.cron.tick();
    harness.server.client.launchSlot = launch;
    expect(harness.server.runs).toHaveLength(0);
    expect(harness.server.count('schedules')).toBe(2);
    expect(await taskOf(schedule._id)).toMatchObject({ scheduledDate: '2026-03-02T15:00:00.000Z', executionInProgress: false });
  });

  it('keeps the task when the server cannot be reached, and follows the same run once it answers again', async () => {
    harness = autopilotHarness({ at: '2026-03-02T08:00:01.000Z' });
    const { server, cron } = harness;
    const schedule = server.add({ scheduledDate: '2026-03-02T08:00:00.000Z' });
    await harness.autopilot.start();

    server.failNext('checkSchedule');
    await cron.tick();
    expect(server.count('launchSlot')).toBe(0);
    expect(harness.logs.at(-1)).toContain('No se puede contactar con el servidor');
    expect(await taskOf(schedule._id)).toMatchObject({ done: false, executionInProgress: false });

    harness.at(UNREACHABLE_RETRY_MS);
    server.failNext('slotRun');
    await cron.tick();
    expect(server.runs).toHaveLength(1);
    expect(server.schedule(schedule._id)).toBeDefined();

    harness.at(UNREACHABLE_RETRY_MS);
    await cron.tick();
    expect(server.count('launchSlot')).toBe(2);
    expect(server.runs).toHaveLength(1);
    expect(server.schedule(schedule._id)).toBeUndefined();
    expect(await taskOf(schedule._id)).toMatchObject({ done: true, runId: server.runs[0]?.runId });
  });

  it('lets the user’s new date stand when they move the schedule while it runs', async () => {
    harness = autopilotHarness({ at: '2026-03-02T08:00:01.000Z' });
    const { server, cron } = harness;
    const schedule = server.add({ scheduledDate: '2026-03-02T08:00:00.000Z', repeat: true, every: 1, interval: 'days' });
    await harness.autopilot.start();
    server.finishAfterPolls = null;
    const ticking = cron.tick();
    await vi.waitFor(() => expect(server.runs).toHaveLength(1));
    server.move(schedule._id, '2026-03-04T16:00:00.000Z');
    server.finish(server.runs[0]?.runId ?? '');
    await ticking;
    expect(server.schedule(schedule._id)?.scheduledDate).toBe('2026-03-04T16:00:00.000Z');
    expect(await taskOf(schedule._id)).toMatchObject({ scheduledDate: '2026-03-04T16:00:00.000Z', executionInProgress: false });
  });

  it('hands the token back when the server refuses it, and does nothing more until linked again', async () => {
    harness = autopilotHarness({ at: '2026-03-02T08:00:01.000Z' });
    const schedule = harness.server.add({ scheduledDate: '2026-03-02T08:00:00.000Z' });
    await harness.autopilot.start();
    harness.server.failNext('checkSchedule', 1, new DeviceError('token-refused', 'Este dispositivo ya no está conectado'));
    await harness.cron.tick();
    expect(harness.link.refusals).toBe(1);
    expect((await harness.autopilot.snapshot()).linked).toBe(false);
    await harness.cron.tick();
    expect(harness.server.count('checkSchedule')).toBe(1);
    expect(await taskOf(schedule._id)).toMatchObject({ done: false, executionInProgress: false });
  });
});

describe('more than one loop on one cache', () => {
  it('launches a due task once when two autopilots on the same folder tick at the same time', async () => {
    harness = autopilotHarness({ at: '2026-03-02T08:00:01.000Z' });
    const second = harness.make();
    const schedule = harness.server.add({ scheduledDate: '2026-03-02T08:00:00.000Z', repeat: true, every: 1, interval: 'days' });
    await Promise.all([harness.autopilot.start(), second.start()]);
    await harness.cron.tick();
    await harness.cron.tick();
    expect(harness.server.count('checkSchedule')).toBe(1);
    expect(harness.server.count('launchSlot')).toBe(1);
    expect(harness.server.count('advanceSchedule')).toBe(1);
    expect(harness.server.schedule(schedule._id)?.scheduledDate).toBe('2026-03-03T08:00:00.000Z');
  });

  it('after a crash mid-task, follows the same run instead of launching a second one', async () => {
    harness = autopilotHarness({ at: '2026-03-02T08:00:02.000Z' });
    const { server } = harness;
    const schedule = server.add({ scheduledDate: '2026-03-02T08:00:00.000Z', repeat: true, every: 1, interval: 'days' });
    const deadPid = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);

    // The process that died: it pulled the schedule, claimed it, launched its slot, and was killed.
    const crashed = TaskCache.open(join(harness.folder, CACHE_FILE_NAME));
    crashed.syncApp('robots', [{ id: `flow:${schedule._id}`, scheduleId: schedule._id, title: 'x', description: 'x', scheduledDate: schedule.scheduledDate, repeat: { every: 1, interval: 'days' }, info: [], items: [] }], harness.now());
    const owner = `${deadPid}:${'0'.repeat(8)}`;
    expect(crashed.claimDue(harness.now(), owner, 60_000, ['robots'])).not.toBeNull();
    const slot = await server.client.launchSlot(schedule._id, schedule.scheduledDate);
    crashed.setRunId(`flow:${schedule._id}`, owner, slot.runId);
    crashed.close();

    await harness.autopilot.start();
    expect(await taskOf(schedule._id)).toMatchObject({ executionInProgress: false, runId: slot.runId });
    await harness.cron.tick();
    expect(server.runs).toHaveLength(1);
    expect(server.count('launchSlot')).toBe(2);
    expect(server.schedule(schedule._id)?.scheduledDate).toBe('2026-03-03T08:00:00.000Z');
  });

  it('after a crash, advances a slot whose run finished meanwhile without running it again', async () => {
    harness = autopilotHarness({ at: '2026-03-02T08:00:02.000Z' });
    const { server } = harness;
    const schedule = server.add({ scheduledDate: '2026-03-02T08:00:00.000Z' });
    const slot = await server.client.launchSlot(schedule._id, schedule.scheduledDate);
    server.finish(slot.runId, 500);
    await harness.autopilot.start();
    await harness.cron.tick();
    expect(server.runs).toHaveLength(1);
    expect(server.count('slotRun')).toBe(0);
    expect(server.schedule(schedule._id)).toBeUndefined();
    expect(await taskOf(schedule._id)).toMatchObject({ done: true, runId: slot.runId });
  });
});

describe('a slot the server refuses to launch', () => {
  const refusal = new DeviceError('refused', 'Las entradas del robot ya no son válidas');

  it('moves a repeating schedule on instead of asking again every few seconds', async () => {
    harness = autopilotHarness({ at: '2026-05-04T07:00:00.500Z' });
    const { server, autopilot, cron } = harness;
    const schedule = server.add({ scheduledDate: '2026-05-04T07:00:00.000Z', repeat: true, every: 1, interval: 'days' });
    server.failNext('launchSlot', 1, refusal);
    await autopilot.start();
    await cron.tick();
    expect(server.runs).toHaveLength(0);
    expect(server.schedule(schedule._id)?.scheduledDate).toBe('2026-05-05T07:00:00.000Z');
    harness.at(60_000);
    await cron.tick();
    expect(server.count('launchSlot')).toBe(1);
  });

  it('lets a one-off go, as the server runner does with its refusals', async () => {
    harness = autopilotHarness({ at: '2026-05-04T07:00:00.500Z' });
    const { server, autopilot, cron } = harness;
    const schedule = server.add({ scheduledDate: '2026-05-04T07:00:00.000Z' });
    server.failNext('launchSlot', 1, refusal);
    await autopilot.start();
    await cron.tick();
    expect(server.schedule(schedule._id)).toBeUndefined();
    expect(server.count('launchSlot')).toBe(1);
    expect(server.runs).toHaveLength(0);
  });
});
