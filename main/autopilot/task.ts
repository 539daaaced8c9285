import type { AutopilotAppId, AutopilotTask } from '#shared/autopilot/state.ts';
import type { ScheduleInterval } from '#shared/schedule/index.ts';

/** A task as the autopilot keeps it: what an app brings, and what the cache (task-cache.ts) and its rows (task-rows.ts) add. */

/** What an app's load brings for one task; the cache adds the run state. */
export interface IncomingTask {
  id: string;
  scheduleId: string | null;
  title: string;
  description: string;
  /** ISO-8601; stored normalised to UTC. */
  scheduledDate: string;
  repeat: { every: number; interval: ScheduleInterval } | null;
  info: AutopilotTask['info'];
  items: string[];
}

export interface CachedTask extends IncomingTask {
  app: AutopilotAppId;
  done: boolean;
  /** When it was marked done: it stays (with its check) until that Madrid day ends. */
  doneAt: string | null;
  removing: boolean;
  /** The server run of its last (or current) launch. */
  runId: string | null;
  claimedBy: string | null;
  /** Epoch ms the claim holds until, unless renewed. */
  claimedUntil: number | null;
  /** Epoch ms before which it is not claimed again (a 299 run, a server that did not answer). */
  retryAfter: number | null;
  updatedAt: string;
}
