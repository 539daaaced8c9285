export { RUN_RESULTS, UNKNOWN_RESULT_LABEL, resultName, runStatus } from './status.ts';
export type { RunOutcome, RunResultCode, RunResultName, RunStatus, RunStatusCode } from './status.ts';
export { LOW_SUCCESS_RATIO, executionType, runCost, successRatio } from './metrics.ts';
export type { ExecutionType, RunOrigin, SuccessRatio, UsageRecord } from './metrics.ts';
