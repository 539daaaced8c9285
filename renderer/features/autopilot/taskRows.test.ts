import { describe, expect, it } from 'vitest';
import type { ScheduledFlow } from '#shared/api/flows.ts';
import type { AutopilotTask } from '#shared/autopilot/state.ts';
import { pendingTaskCount, rowFromSchedule, rowFromTask, willLaunchToday } from './taskRows.ts';

const task = (overrides: Partial<AutopilotTask> = {}): AutopilotTask => ({
  id: 'flow:s1', app: 'robots', title: 'Descarga de notificaciones', description: 'En PC oficina',
  scheduledDate: '2025-03-10T08:30:00.000Z', done: false, removing: false, executionInProgress: false,
  repeat: null, info: [], items: [], canBeRemoved: true, runId: null, scheduleId: 's1', ...overrides,
});

const schedule = (overrides: Partial<ScheduledFlow> = {}): ScheduledFlow => ({
  _id: '5f0c3a9e-2b1d-4c8e-9f6a-1d2e3f4a5b6c', browserFlowName: 'Modelo 111', browserFlow: 'modelo-111', localProcess: null,
  scheduledDate: '2025-03-10T08:30:00.000Z', repeat: true, every: 3, interval: 'days',
  user: { email: 'ana@asesoria.es', name: 'Ana' }, machine: { _id: 'm1', name: 'PC oficina' },
  flowInputs: {}, sendOutputToServer: true, updatedAt: '2025-03-01T00:00:00.000Z', ...overrides,
});

describe('rowFromTask', () => {
  it('says how a repeating task repeats, agreeing the unit with the number', () => {
    expect(rowFromTask(task({ repeat: { every: 1, interval: 'hours' } })).repeat).toBe('Se lanza cada 1 hora');
    expect(rowFromTask(task({ repeat: { every: 2, interval: 'months' } })).repeat).toBe('Se lanza cada 2 meses');
    expect(rowFromTask(task()).repeat).toBeNull();
  });

  it('offers no delete for a running task, one being removed, or one the desktop will not remove', () => {
    expect(rowFromTask(task()).removable).toBe(true);
    expect(rowFromTask(task({ executionInProgress: true })).removable).toBe(false);
    expect(rowFromTask(task({ removing: true })).removable).toBe(false);
    expect(rowFromTask(task({ canBeRemoved: false })).removable).toBe(false);
  });
});

describe('rowFromSchedule', () => {
  it('maps a schedule to a read-only robots row naming its machine', () => {
    const row = rowFromSchedule(schedule());
    expect(row).toMatchObject({ app: 'robots', title: 'Modelo 111', description: 'En PC oficina', repeat: 'Se lanza cada 3 días', removable: false, done: false });
    expect(rowFromSchedule(schedule({ machine: null, repeat: false })).repeat).toBeNull();
  });
});

describe('badge and play icon', () => {
  it('counts the tasks not done', () => {
    expect(pendingTaskCount([task(), task({ done: true }), task()])).toBe(2);
  });

  it('will launch today only while looping with something left for today (overdue included)', () => {
    const now = new Date('2025-03-10T12:00:00.000Z');
    const overdue = task({ scheduledDate: '2025-03-08T08:00:00.000Z' });
    const tomorrow = task({ scheduledDate: '2025-03-11T08:00:00.000Z' });
    expect(willLaunchToday({ looping: true, tasks: [overdue] }, now)).toBe(true);
    expect(willLaunchToday({ looping: false, tasks: [overdue] }, now)).toBe(false);
    expect(willLaunchToday({ looping: true, tasks: [tomorrow, task({ done: true })] }, now)).toBe(false);
  });
});
