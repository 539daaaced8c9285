import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toMadridParts } from '#shared/time/index.ts';
import { connectDatabase } from '../../db/connect.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { linkPc } from '../devices/test-support.ts';
import { memberOf } from '../flowlogs/fixtures.ts';
import { DESKTOP_FLOW_ID, TEST_FLOW_ID } from '../flows/test-flows/index.ts';
import { TEST_FLOWS_CONFIG } from '../runs/test-support.ts';
import { ScheduleRunner, type ScheduleLauncher } from './runner.ts';

/**
 * The runner with an injected clock and a launcher that records what it is asked to start, on the
 * real database (the end-to-end path with the real launcher is in runner-e2e.test.ts).
 */

type Launch = Parameters<ScheduleLauncher['launch']>[0];

class RecordingLauncher implements ScheduleLauncher {
  readonly launches: Launch[] = [];
  /** How the next runs end (default: 200 Success). */
  outcome: { result: string | null; launchStatus: number | null } | Error = { result: 'Success', launchStatus: 200 };
  /** Runs stay unfinished until release() when set. */
  private held: Array<() => void> | null = null;

  hold(): void {
    this.held = [];
  }

  release(): void {
    for (const resume of this.held ?? []) resume();
    this.held = null;
  }

  async launch(input: Launch): Promise<{ runId: string; executionToken: string }> {
    this.launches.push(input);
    if (this.outcome instanceof Error) throw this.outcome;
    return { runId: randomUUID(), executionToken: randomUUID() };
  }

  async finished(): Promise<{ result: string | null; launchStatus: number | null }> {
    if (this.held) await new Promise<void>((resume) => this.held?.push(resume));
    if (this.outcome instanceof Error) throw this.outcome;
    return this.outcome;
  }
}

const quietLog = { warn: () => undefined, error: () => undefined };

let server: TestServer;
let db: Kysely<Database>;
let ana: CookieJar;
let member: { userId: string; groupId: string };
let clock: Date;
let launcher: RecordingLauncher;
const runners: ScheduleRunner[] = [];

function runner(options: { retryMs?: number; leaseMs?: number } = {}): ScheduleRunner {
  const created = new ScheduleRunner({ db, launcher, now: () => clock, log: quietLog, ...options });
  runners.push(created);
  return created;
}

/** One tick, and the runs it launched followed to the end. */
async function tickAndSettle(target: ScheduleRunner = runner()): Promise<number> {
  const claimed = await target.tick();
  await target.idle();
  return claimed;
}

async function insertSchedule(values: { scheduledDate: string; repeat?: boolean; every?: number; interval?: string; flowId?: string; machineId?: string }): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('flow_schedules')
    .values({
      id, group_id: member.groupId, user_id: member.userId, flow_id: values.flowId ?? TEST_FLOW_ID, flow_name: 'Robot de pruebas',
      scheduled_date: values.scheduledDate, repeat: values.repeat ? 1 : 0, every: values.every ?? 1, interval: values.interval ?? 'days',
      flow_inputs: JSON.stringify({ mode: 'ok' }), send_output_to_server: 1, machine_id: values.machineId ?? null, local_machine_hash: null, local_process: null,
      claimed_by: null, claimed_until: null, created_at: '2025-01-01T00:00:00.000Z', updated_at: '2025-01-01T00:00:00.000Z',
    })
    .execute();
  return id;
}

async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  for (let waited = 0; !(await condition()); waited += 10) {
    if (waited > 5_000) throw new Error('la condición no se ha cumplido a tiempo');
    await new Promise((resume) => setTimeout(resume, 10));
  }
}

const stored = (id: string) => db.selectFrom('flow_schedules').selectAll().where('id', '=', id).executeTakeFirst();

beforeEach(async () => {
  server = await startTestServer({ ...TEST_FLOWS_CONFIG, scheduleRunnerIntervalMs: 0 });
  db = connectDatabase(server.database);
  ana = await registerUser(server.app, 'ana@asesoria.es');
  member = await memberOf(db, 'ana@asesoria.es');
  launcher = new RecordingLauncher();
  clock = new Date('2025-03-20T10:00:00.000Z');
});
afterEach(async () => {
  launcher.release();
  await Promise.all(runners.splice(0).map((each) => each.stop()));
  await db.destroy();
  await server.close();
});

describe('ScheduleRunner', () => {
  it('runs a one-off schedule once when it is due, then deletes it', async () => {
    const id = await insertSchedule({ scheduledDate: '2025-03-20T10:05:00.000Z' });
    expect(await tickAndSettle()).toBe(0);
    clock = new Date('2025-03-20T10:05:00.000Z');
    expect(await tickAndSettle()).toBe(1);
    expect(launcher.launches).toEqual([
      { groupId: member.groupId, userId: member.userId, flowId: TEST_FLOW_ID, inputs: { mode: 'ok' }, idempotencyKey: `${id}:2025-03-20T10:05:00.000Z`, scheduleId: id },
    ]);
    expect(await stored(id)).toBeUndefined();
    expect(await tickAndSettle()).toBe(0);
    expect(launcher.launches).toHaveLength(1);
  });

  it('lets only one of two racing runners launch a due schedule', async () => {
    await insertSchedule({ scheduledDate: '2025-03-20T09:00:00.000Z', repeat: true });
    const first = runner();
    const second = runner();
    const claims = await Promise.all([first.tick(), second.tick(), first.tick(), second.tick()]);
    await Promise.all([first.idle(), second.idle()]);
    expect(claims.reduce((a, b) => a + b, 0)).toBe(1);
    expect(launcher.launches).toHaveLength(1);
  });

  it('does not claim a schedule another runner holds, until its claim expires', async () => {
    const id = await insertSchedule({ scheduledDate: '2025-03-20T09:00:00.000Z' });
    launcher.hold();
    const holder = runner({ leaseMs: 60_000 });
    expect(await holder.tick()).toBe(1);
    expect(await runner().tick()).toBe(0);
    // The holder died without finishing: after the lease, another runner takes over with the same key.
    clock = new Date(clock.getTime() + 61_000);
    const takeover = runner();
    expect(await takeover.tick()).toBe(1);
    await until(() => launcher.launches.length === 2);
    expect(launcher.launches.map((launch) => launch.idempotencyKey)).toEqual([`${id}:2025-03-20T09:00:00.000Z`, `${id}:2025-03-20T09:00:00.000Z`]);
    launcher.release();
    await takeover.idle();
    await holder.idle();
    expect(await stored(id)).toBeUndefined();
  });

  it('keeps its claim past the lease while it follows a run that goes on', async () => {
    const id = await insertSchedule({ scheduledDate: '2025-03-20T09:00:00.000Z' });
    launcher.hold();
    const holder = runner({ leaseMs: 300 });
    expect(await holder.tick()).toBe(1);
    // Well past the first lease: the holder, alive, has renewed it from its clock in the meantime.
    clock = new Date(clock.getTime() + 10_000);
    await until(async () => (await stored(id))?.claimed_until === new Date(clock.getTime() + 300).toISOString());
    expect(await runner().tick()).toBe(0);
    expect(launcher.launches).toHaveLength(1);
    launcher.release();
    await holder.idle();
    expect(await stored(id)).toBeUndefined();
  });

  it.each([
    ['spring', '2025-03-29T08:00:00.000Z', ['2025-03-30T07:00:00.000Z', '2025-03-31T07:00:00.000Z']],
    ['autumn', '2025-10-25T07:00:00.000Z', ['2025-10-26T08:00:00.000Z', '2025-10-27T08:00:00.000Z']],
  ])('keeps a daily 09:00 at 09:00 Madrid across the %s DST change', async (_, first, expected) => {
    const id = await insertSchedule({ scheduledDate: first, repeat: true });
    const seen: string[] = [];
    clock = new Date(first);
    for (const next of expected) {
      expect(await tickAndSettle()).toBe(1);
      const row = await stored(id);
      expect(row?.scheduled_date).toBe(next);
      expect(row?.claimed_by).toBeNull();
      seen.push(`${toMadridParts(new Date(next)).hour}:${toMadridParts(new Date(next)).minute}`);
      clock = new Date(next);
    }
    expect(seen).toEqual(['9:0', '9:0']);
    expect(launcher.launches).toHaveLength(2);
  });

  it('runs slots missed while the server was down once, then moves to the next future one', async () => {
    const id = await insertSchedule({ scheduledDate: '2025-03-17T08:00:00.000Z', repeat: true });
    // Down since the 17th: three daily slots (17, 18, 19) and today's 09:00 has passed too.
    clock = new Date('2025-03-20T10:00:00.000Z');
    expect(await tickAndSettle()).toBe(1);
    expect(await tickAndSettle()).toBe(0);
    expect(launcher.launches).toHaveLength(1);
    expect((await stored(id))?.scheduled_date).toBe('2025-03-21T08:00:00.000Z');
  });

  it('repeats every 6 hours and every month on the same wall clock', async () => {
    const hourly = await insertSchedule({ scheduledDate: '2025-03-20T05:00:00.000Z', repeat: true, every: 6, interval: 'hours' });
    const monthly = await insertSchedule({ scheduledDate: '2025-01-31T08:00:00.000Z', repeat: true, every: 1, interval: 'months' });
    expect(await tickAndSettle()).toBe(2);
    expect((await stored(hourly))?.scheduled_date).toBe('2025-03-20T11:00:00.000Z');
    // Jan 31 + 2 months, clamped to Mar 31 (the Feb 28 slot is past too): 09:00 Madrid is 07:00Z in summer time.
    expect((await stored(monthly))?.scheduled_date).toBe('2025-03-31T07:00:00.000Z');
  });

  it('changes nothing when the server aborted the run (299), and releases the claim', async () => {
    const id = await insertSchedule({ scheduledDate: '2025-03-20T09:00:00.000Z', repeat: true });
    launcher.outcome = { result: 'FlowAborted', launchStatus: 299 };
    expect(await tickAndSettle()).toBe(1);
    expect(await stored(id)).toMatchObject({ scheduled_date: '2025-03-20T09:00:00.000Z', claimed_by: null, claimed_until: null });
    // The slot is still due: the next tick tries it again.
    launcher.outcome = { result: 'Success', launchStatus: 200 };
    expect(await tickAndSettle()).toBe(1);
    expect((await stored(id))?.scheduled_date).toBe('2025-03-21T09:00:00.000Z');
  });

  it('moves on after a stop by the user (202) or a refused launch (402), which are in the history', async () => {
    const stopped = await insertSchedule({ scheduledDate: '2025-03-20T09:00:00.000Z' });
    launcher.outcome = { result: 'FlowAborted', launchStatus: 202 };
    await tickAndSettle();
    expect(await stored(stopped)).toBeUndefined();

    const refused = await insertSchedule({ scheduledDate: '2025-03-20T09:30:00.000Z', repeat: true });
    launcher.outcome = new HttpError(402, 'NOT_ENOUGH_CREDITS', 'Insuficientes slans');
    await tickAndSettle();
    expect((await stored(refused))?.scheduled_date).toBe('2025-03-21T09:30:00.000Z');
  });

  it('retries after an unexpected failure, not before retryMs', async () => {
    const id = await insertSchedule({ scheduledDate: '2025-03-20T09:00:00.000Z' });
    launcher.outcome = new Error('base de datos caída');
    expect(await tickAndSettle(runner({ retryMs: 60_000 }))).toBe(1);
    expect(await stored(id)).toMatchObject({ scheduled_date: '2025-03-20T09:00:00.000Z', claimed_by: null, claimed_until: '2025-03-20T10:01:00.000Z' });
    launcher.outcome = { result: 'Success', launchStatus: 200 };
    expect(await tickAndSettle()).toBe(0);
    clock = new Date('2025-03-20T10:01:01.000Z');
    expect(await tickAndSettle()).toBe(1);
    expect(await stored(id)).toBeUndefined();
  });

  it('leaves a date the user moved the schedule to while its run went on', async () => {
    const id = await insertSchedule({ scheduledDate: '2025-03-20T09:00:00.000Z', repeat: true });
    launcher.hold();
    const busy = runner();
    await busy.tick();
    await db.updateTable('flow_schedules').set({ scheduled_date: '2025-04-02T07:00:00.000Z' }).where('id', '=', id).execute();
    launcher.release();
    await busy.idle();
    expect(await stored(id)).toMatchObject({ scheduled_date: '2025-04-02T07:00:00.000Z', claimed_by: null });
  });

  it('leaves desktop flows to the desktop (on a machine: its autopilot launches them) and skips robots no longer offered', async () => {
    const pc = await linkPc(ana, 'despacho');
    const onMachine = await insertSchedule({ scheduledDate: '2025-03-20T09:00:00.000Z', flowId: DESKTOP_FLOW_ID, machineId: pc.machine._id });
    await insertSchedule({ scheduledDate: '2025-03-20T09:00:00.000Z', flowId: DESKTOP_FLOW_ID });
    await insertSchedule({ scheduledDate: '2025-03-20T09:00:00.000Z', flowId: 'robot-retirado' });
    expect(await tickAndSettle()).toBe(0);
    expect(launcher.launches).toEqual([]);
    expect(await stored(onMachine)).toMatchObject({ scheduled_date: '2025-03-20T09:00:00.000Z', claimed_by: null, claimed_until: null });
  });

  it('stops claiming once stopped', async () => {
    await insertSchedule({ scheduledDate: '2025-03-20T09:00:00.000Z' });
    const stopping = runner();
    await stopping.stop();
    expect(await stopping.tick()).toBe(0);
  });
});
