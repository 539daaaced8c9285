/** How the rest of the server starts runs (schedules, devices' slots): the part of RunService they see, apart from it so they need not import the service. */

/** A launch, from the launcher (HTTP) or from a schedule. */
export interface LaunchInput {
  groupId: string;
  userId: string;
  flowId: string;
  inputs: Record<string, unknown>;
  idempotencyKey: string;
  scheduleId?: string;
  acceptExtraUsage?: boolean;
  /** A desktop flow: the machine (the caller's, or shared with the firm) that runs it. */
  machineId?: string;
  /** The desktop app launches on its own machine: not a remote launch, and its files stay there. */
  localLaunch?: boolean;
}

/** What other modules (schedules) use to start runs; app.ts passes them the RunService. */
export interface RunLauncher {
  /** Checks and queues a run exactly as POST execution does; throws the same HttpError (402/404/400/409). */
  launch(input: LaunchInput): Promise<{ runId: string; executionToken: string }>;
  /** Resolves once the run has finished (immediately if it already has). */
  finished(runId: string): Promise<{ result: string | null; launchStatus: number | null }>;
}
