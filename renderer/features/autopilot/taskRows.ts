import type { ScheduledFlow } from '#shared/api/flows.ts';
import type { AutopilotAppId, AutopilotSnapshot, AutopilotTask } from '#shared/autopilot/state.ts';
import { repeatText } from '#shared/schedule/next-run.ts';
import { canRemoveTask } from '#shared/schedule/task-removal.ts';
import { isForToday } from '#shared/schedule/tasks.ts';
import { autopilot as text } from '../../i18n/es-autopilot.ts';

/** One task as the panel draws it, from the desktop's snapshot or from a schedule on the server (web). */
export interface TaskRow {
  id: string;
  app: AutopilotAppId;
  title: string;
  description: string;
  scheduledDate: string;
  done: boolean;
  running: boolean;
  removing: boolean;
  /** 'Se lanza cada 2 días'; null for a one-off. */
  repeat: string | null;
  info: { text: string; icon: string; tooltip: string | null }[];
  items: string[];
  /** The delete button shows (embedded only, and never for a running task). */
  removable: boolean;
}

export function rowFromTask(task: AutopilotTask): TaskRow {
  return {
    id: task.id,
    app: task.app,
    title: task.title,
    description: task.description,
    scheduledDate: task.scheduledDate,
    done: task.done,
    running: task.executionInProgress,
    removing: task.removing,
    repeat: task.repeat ? repeatText(task.repeat.every, task.repeat.interval) : null,
    info: task.info,
    items: task.items,
    removable: task.canBeRemoved && canRemoveTask(task),
  };
}

/** Web mode (spec §6): the user's schedules, read-only; they are scheduled flows, the robots app's tasks. */
export function rowFromSchedule(schedule: ScheduledFlow): TaskRow {
  return {
    id: schedule._id,
    app: 'robots',
    title: schedule.browserFlowName,
    description: schedule.machine ? text.onMachine(schedule.machine.name) : '',
    scheduledDate: schedule.scheduledDate,
    done: false,
    running: false,
    removing: false,
    repeat: schedule.repeat ? repeatText(schedule.every, schedule.interval) : null,
    info: [],
    items: [],
    removable: false,
  };
}

/** The badge: tasks still to do. */
export function pendingTaskCount(tasks: readonly Pick<AutopilotTask, 'done'>[]): number {
  return tasks.filter((task) => !task.done).length;
}

/** The play icon's state: the loop runs and something is left for today ('Los procesos se lanzarán automáticamente'). */
export function willLaunchToday(snapshot: Pick<AutopilotSnapshot, 'looping' | 'tasks'>, now: Date): boolean {
  return snapshot.looping && snapshot.tasks.some((task) => !task.done && isForToday(task, now));
}
