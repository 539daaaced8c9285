/** Derived figures of the run history (spec §4, §9). */

export type ExecutionType = 'Lanzamiento remoto' | 'Programado' | 'Manual';

export interface RunOrigin {
  /** Launched for a machine from the web or a schedule (desktop runtime). */
  remote?: boolean;
  scheduled?: boolean;
  browserFlowSchedule?: { machine?: unknown } | string | null;
}

/** 'Lanzamiento remoto' if scheduled on a machine, 'Programado' if scheduled, otherwise 'Manual'. */
export function executionType(log: RunOrigin): ExecutionType {
  const schedule = log.browserFlowSchedule;
  if (log.remote === true) return 'Lanzamiento remoto';
  const onMachine = typeof schedule === 'object' && schedule !== null && schedule.machine !== undefined && schedule.machine !== null;
  if (onMachine) return 'Lanzamiento remoto';
  if (log.scheduled === true || (schedule !== undefined && schedule !== null)) return 'Programado';
  return 'Manual';
}

export const LOW_SUCCESS_RATIO = 75;

export interface SuccessRatio {
  /** Percentage of successful iterations, 0-100. */
  percentage: number;
  /** Under 75%: shown in the warning colour. */
  low: boolean;
}

/** Success ratio of a run's iterations, or null when it had none to count. */
export function successRatio(successfulIterations: number | undefined, totalIterations: number | undefined): SuccessRatio | null {
  if (totalIterations === undefined || totalIterations <= 0 || successfulIterations === undefined) return null;
  const percentage = (successfulIterations * 100) / totalIterations;
  return { percentage, low: percentage < LOW_SUCCESS_RATIO };
}

export interface UsageRecord {
  usageUnits: number;
  usageRatio: number;
}

/** Credits a run cost: the sum of usageUnits x usageRatio over its usage history. */
export function runCost(usageHistory: readonly UsageRecord[] | undefined): number {
  return (usageHistory ?? []).reduce((total, usage) => total + usage.usageUnits * usage.usageRatio, 0);
}
