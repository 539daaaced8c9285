/**
 * Spec §2 Autopilot: a task can be deleted unless its robot is running or its deletion is already
 * under way. The autopilot (main/autopilot) sends it as each task's canBeRemoved; the panel
 * (renderer/features/autopilot) checks it again before it offers the delete.
 */
export function canRemoveTask(task: { executionInProgress: boolean; removing: boolean }): boolean {
  return !task.executionInProgress && !task.removing;
}
