import type { Handler } from './context.ts';

/** Deletes a task (a scheduled flow's schedule on the server too); a running task refuses (FORBIDDEN). */
export const DeleteAutopilotTask: Handler<'DeleteAutopilotTask'> = async ({ taskId }, ctx) => ctx.autopilot.deleteTask(taskId);
