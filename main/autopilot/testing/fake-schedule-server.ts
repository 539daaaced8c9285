/**
 * The server's side of the autopilot's schedule calls, kept in memory as the server keeps them: a
 * machine's schedules, one run per slot (asked again -> the same run; after a 299 run, a new one),
 * moves and deletes only while the schedule is still at the date given (409 otherwise, 404 when
 * gone). Every call is recorded. Plus a fake device link that hands this client out while linked.
 */
import { randomUUID } from 'node:crypto';
import type { SlotRun } from '#shared/api/autopilot.ts';
import { ABORTED_LAUNCH_STATUS, SCHEDULE_MOVED_MESSAGE } from '#shared/api/autopilot.ts';
import type { ScheduledFlow } from '#shared/api/flows.ts';
import type { DeviceStatus } from '#shared/bridge/contract.ts';
import type { DeviceLinkService } from '../../device/connection.ts';
import { DeviceError } from '../../device/errors.ts';
import type { DeviceServerClient } from '../../device/server-client.ts';
import type { DeviceLinkRecord } from '../../device/token-store.ts';

export const MACHINE = { _id: '7c1e4a52-3b9d-4f0e-8a61-2d5c9b7e0f13', name: 'OFICINA-01' };

type ScheduleCall = 'schedules' | 'checkSchedule' | 'launchSlot' | 'slotRun' | 'advanceSchedule' | 'removeSchedule';

interface FakeRun extends SlotRun {
  scheduleId: string;
  scheduledDate: string;
  /** Looks at it so far (slotRun calls). */
  polls: number;
}

export interface FakeScheduleServer {
  client: DeviceServerClient;
  /** Adds a schedule of this machine (a desktop flow due at `scheduledDate`). */
  add(schedule: Partial<ScheduledFlow> & { scheduledDate: string }): ScheduledFlow;
  schedule(id: string): ScheduledFlow | undefined;
  /** The user moved or deleted it in the web app. */
  move(id: string, scheduledDate: string): void;
  delete(id: string): void;
  /** Every run the server created, in order. */
  runs: FakeRun[];
  /** Ends a run (200 Success unless told); a followed run ends by itself after `finishAfterPolls` looks. */
  finish(runId: string, launchStatus?: number): void;
  /** Null: runs end only by finish(). Default 1. */
  finishAfterPolls: number | null;
  /** The status runs end with by themselves. */
  endStatus: number;
  /** The next `count` calls of `call` fail with this error (unreachable by default). */
  failNext(call: ScheduleCall, count?: number, error?: DeviceError): void;
  calls: { call: ScheduleCall; scheduleId?: string; body?: unknown }[];
  count(call: ScheduleCall): number;
}

export function fakeScheduleServer(): FakeScheduleServer {
  const schedules = new Map<string, ScheduledFlow>();
  const runs: FakeRun[] = [];
  const calls: FakeScheduleServer['calls'] = [];
  const failures = new Map<ScheduleCall, DeviceError[]>();

  const record = (call: ScheduleCall, scheduleId?: string, body?: unknown) => {
    calls.push({ call, ...(scheduleId && { scheduleId }), ...(body !== undefined && { body }) });
    const failure = failures.get(call)?.shift();
    if (failure) throw failure;
  };
  const gone = () => new DeviceError('not-found', 'Esta programación ya no existe');
  const moved = () => new DeviceError('conflict', SCHEDULE_MOVED_MESSAGE);
  const existing = (id: string) => {
    const schedule = schedules.get(id);
    if (!schedule) throw gone();
    return schedule;
  };
  const same = (a: string, b: string) => new Date(a).getTime() === new Date(b).getTime();
  const view = (run: FakeRun): SlotRun => ({ runId: run.runId, state: run.state, launchStatus: run.launchStatus, result: run.result });
  const close = (run: FakeRun, launchStatus: number) => {
    run.state = 'finished';
    run.launchStatus = launchStatus;
    run.result = launchStatus === 200 ? 'Success' : launchStatus === ABORTED_LAUNCH_STATUS ? 'FlowAborted' : 'Fail';
  };

  const server: FakeScheduleServer = {
    runs,
    calls,
    finishAfterPolls: 1,
    endStatus: 200,
    count: (call) => calls.filter((entry) => entry.call === call).length,
    add(partial) {
      const schedule: ScheduledFlow = {
        _id: randomUUID(),
        browserFlowName: 'Descargar justificantes',
        browserFlow: 'descargar-justificantes',
        localProcess: null,
        repeat: false,
        every: 1,
        interval: 'days',
        user: { email: 'ana@asesoria.example', name: 'Ana' },
        machine: MACHINE,
        flowInputs: {},
        sendOutputToServer: true,
        updatedAt: new Date().toISOString(),
        ...partial,
      };
      schedules.set(schedule._id, schedule);
      return schedule;
    },
    schedule: (id) => schedules.get(id),
    move(id, scheduledDate) {
      schedules.set(id, { ...existing(id), scheduledDate });
    },
    delete(id) {
      schedules.delete(id);
    },
    finish(runId, launchStatus = 200) {
      const run = runs.find((candidate) => candidate.runId === runId);
      if (!run) throw new Error(`no run ${runId}`);
      close(run, launchStatus);
    },
    failNext(call, count = 1, error = new DeviceError('unreachable', 'No se puede contactar con el servidor https://autoasesor.test. Se vuelve a intentar en unos segundos.')) {
      failures.set(call, [...(failures.get(call) ?? []), ...Array.from({ length: count }, () => error)]);
    },
    client: {
      serverUrl: 'https://autoasesor.test',
      me: async () => ({ machine: MACHINE, user: { email: 'ana@asesoria.example', name: 'Ana' } }),
      nextRun: async () => null,
      claimRun: async () => {
        throw new Error('not used by the autopilot');
      },
      report: async () => {
        throw new Error('not used by the autopilot');
      },
      finish: async () => {
        throw new Error('not used by the autopilot');
      },
      runFile: async () => {
        throw new Error('not used by the autopilot');
      },
      async schedules() {
        record('schedules');
        return [...schedules.values()].sort((a, b) => a.scheduledDate.localeCompare(b.scheduledDate)).map((schedule) => ({ ...schedule }));
      },
      async checkSchedule(id) {
        record('checkSchedule', id);
        const schedule = schedules.get(id);
        return { exists: schedule !== undefined, schedule: schedule ? { ...schedule } : null };
      },
      async launchSlot(id, scheduledDate) {
        record('launchSlot', id, { scheduledDate });
        const schedule = existing(id);
        if (!same(schedule.scheduledDate, scheduledDate)) throw moved();
        // One run per slot; a slot whose last run was cut short (299) is launched anew.
        const latest = runs.filter((run) => run.scheduleId === id && same(run.scheduledDate, scheduledDate)).at(-1);
        if (latest && latest.launchStatus !== ABORTED_LAUNCH_STATUS) return view(latest);
        const run: FakeRun = { runId: randomUUID(), state: 'queued', launchStatus: null, result: null, scheduleId: id, scheduledDate, polls: 0 };
        runs.push(run);
        return view(run);
      },
      async slotRun(id, runId) {
        record('slotRun', id);
        const run = runs.find((candidate) => candidate.runId === runId && candidate.scheduleId === id);
        if (!run) throw new DeviceError('not-found', 'No se ha encontrado esta ejecución');
        run.polls += 1;
        if (run.state !== 'finished') {
          run.state = 'running';
          if (server.finishAfterPolls !== null && run.polls >= server.finishAfterPolls) close(run, server.endStatus);
        }
        return view(run);
      },
      async advanceSchedule(id, from, to) {
        record('advanceSchedule', id, { from, to });
        const schedule = existing(id);
        if (!same(schedule.scheduledDate, from)) throw moved();
        const next = { ...schedule, scheduledDate: new Date(to).toISOString() };
        schedules.set(id, next);
        return { ...next };
      },
      async removeSchedule(id, from) {
        record('removeSchedule', id, { from });
        const schedule = existing(id);
        if (!same(schedule.scheduledDate, from)) throw moved();
        schedules.delete(id);
      },
    },
  };
  return server;
}

export interface FakeLink extends DeviceLinkService {
  /** Unlinks (client() -> null) or links again, telling the listeners. */
  setLinked(linked: boolean): void;
  refusals: number;
}

/** A device link that hands out `client` while linked. */
export function fakeLink(client: DeviceServerClient, linked = true): FakeLink {
  const record: DeviceLinkRecord = { serverUrl: client.serverUrl, deviceToken: 'tok_prueba', machine: MACHINE };
  let current: DeviceLinkRecord | null = linked ? record : null;
  const listeners = new Set<(record: DeviceLinkRecord | null) => void>();
  const status = (): DeviceStatus => ({ linked: current !== null, serverUrl: current?.serverUrl ?? null, machine: current?.machine ?? null, problem: null });
  const link: FakeLink = {
    refusals: 0,
    ready: async () => {},
    current: () => current,
    client: () => (current ? client : null),
    status: async () => status(),
    link: async () => {
      link.setLinked(true);
      return status();
    },
    unlink: async () => {
      link.setLinked(false);
      return status();
    },
    tokenRefused: async () => {
      link.refusals += 1;
      link.setLinked(false);
    },
    setProblem: () => {},
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setLinked(next) {
      current = next ? record : null;
      for (const listener of listeners) listener(current);
    },
  };
  return link;
}

/** A cron whose ticks the test fires by hand; `started` says whether the loop is on. */
export function manualCron() {
  const ticks: (() => Promise<void>)[] = [];
  let active = 0;
  return {
    cron: (expression: string, tick: () => Promise<void>) => {
      if (expression !== '* * * * * *') throw new Error(`unexpected cron expression ${expression}`);
      ticks.push(tick);
      active += 1;
      let stopped = false;
      return {
        stop: () => {
          if (!stopped) active -= 1;
          stopped = true;
          const index = ticks.indexOf(tick);
          if (index >= 0) ticks.splice(index, 1);
        },
      };
    },
    get started() {
      return active > 0;
    },
    /** One tick of every live loop; resolves when each has finished its step. */
    tick: () => Promise.all(ticks.map((tick) => tick())).then(() => undefined),
  };
}

/** Refresh timers the test fires by hand. */
export function manualTimers() {
  const timers = new Set<{ ms: number; tick: () => void }>();
  return {
    every: (ms: number, tick: () => void) => {
      const timer = { ms, tick };
      timers.add(timer);
      return { stop: () => timers.delete(timer) };
    },
    get count() {
      return timers.size;
    },
    fire: () => {
      for (const timer of timers) timer.tick();
    },
  };
}
