import { useCallback, useEffect, useRef, useState } from 'react';
import type { FieldIssue } from '#shared/api/errors.ts';
import { notEnoughCreditsSchema } from '#shared/api/flows.ts';
import type { ExecutionState, ExecutionStateResponse, NotEnoughCredits, Output } from '#shared/api/flows.ts';
import { flowsApi, useExecuteMutation, useStopExecutionMutation } from '../../api/flows.ts';
import { NETWORK_STATUS, TIMEOUT_STATUS } from '../../api/http.ts';
import { useAppDispatch, useBridge } from '../../app/hooks.ts';
import { runFinished, runForgotten, runLeftScreen, runProgressed, runStarted } from '../../app/runNotifications.ts';
import { asHttpError } from '../../ui/forms.ts';
import { launcher as text } from '../../i18n/es-launcher.ts';

/** Seconds the server may hold a state request open waiting for news (long poll). */
export const LONG_POLL_SECONDS = 20;
/** Pause before asking again after a failed poll (the server or the network came back?). */
export const POLL_RETRY_MS = 2000;

export type RunPhase = 'idle' | 'starting' | 'running' | 'finished';

export interface RunProgress {
  phase: RunPhase;
  state: ExecutionState | null;
  runId: string | null;
  consoleLog: string[];
  successfulIterations: number;
  totalIterations: number;
  stopping: boolean;
  /** A poll failed and is being retried. */
  reconnecting: boolean;
  /** A desktop flow's machine, and whether it is connected now (a queued run waits for it). */
  machine: { name: string; online: boolean } | null;
  /** Launched on this PC (LaunchFlow): its files stay in `outputFolder` here. */
  localLaunch: boolean;
  outputFolder: string | null;
}

/** Where a desktop flow runs: this PC (linked, LaunchFlow starts it) or another machine (a remote launch). */
export interface LaunchDevice {
  machineId: string;
  machineName: string;
  online: boolean;
  localLaunch: boolean;
}

/** How a launch ended: the run's Output, or the POST refused (402 with its figures, 400 with issues...). */
export type LaunchOutcome =
  | { kind: 'output'; output: Output }
  | { kind: 'refused'; status: number; message: string; issues: FieldIssue[]; credits: NotEnoughCredits | null }
  /** The page went away, Repeat was pressed or another launch started, while this run went on. */
  | { kind: 'abandoned' };

export interface LaunchRequest {
  flowId: string;
  /** Named in the run notification when the run ends. */
  flowName: string;
  step: string;
  inputs: Record<string, unknown>;
  acceptExtraUsage?: boolean;
  /** Re-send the previous attempt's idempotency key (a retry after no answer), not a new one. */
  retry?: boolean;
  /** Desktop flows only. */
  device?: LaunchDevice;
}

const idle: RunProgress = {
  phase: 'idle', state: null, runId: null, consoleLog: [], successfulIterations: 0, totalIterations: 0, stopping: false, reconnecting: false,
  machine: null, localLaunch: false, outputFolder: null,
};

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A state answer's console lines are the ones after `since` (the lines the caller already had). */
function withNewLines(previous: readonly string[], since: number, state: ExecutionStateResponse): string[] {
  return [...previous.slice(0, since), ...state.consoleLog];
}

/**
 * Launches a flow and follows its run: POST execution (one idempotency key per launch attempt, the
 * same key when a launch that got no answer is retried), then long-polls the state until the Output
 * is set. Progress and console lines update as they arrive; stop() asks the server to end the run.
 * A desktop flow names its machine; on this PC, LaunchFlow then starts the robot here, the desktop
 * reports its lines to the server (the same long poll shows them) and its progress events show at once.
 */
export function useRun() {
  const dispatch = useAppDispatch();
  const bridge = useBridge();
  const [execute] = useExecuteMutation();
  const [stopExecution] = useStopExecutionMutation();
  const [progress, setProgress] = useState<RunProgress>(idle);
  const attemptKey = useRef<string | null>(null);
  const token = useRef<string | null>(null);
  // Bumped by launch(), reset() and on unmount: an older launch stops updating what is shown.
  const generation = useRef(0);
  // The run this launcher shows while it goes; once it stops showing it, the run notification does.
  const onScreen = useRef<string | null>(null);

  /** This launcher stops showing its run (left, Repetir, another launch): the shell's notification follows it. */
  const leaveScreen = useCallback(() => {
    generation.current += 1;
    if (onScreen.current !== null) dispatch(runLeftScreen(onScreen.current));
    onScreen.current = null;
  }, [dispatch]);

  useEffect(() => leaveScreen, [leaveScreen]);

  /**
   * Polls a run until its Output is set. It goes on when the page is left or Repeat is pressed (the
   * run goes on on the server too), so the run notification still tells how it ended; only the
   * progress shown here stops following it. Every answer also reaches the store (runProgressed), so
   * the run notification shows the progress of a run the launcher no longer shows: this one poll
   * feeds both.
   */
  const follow = useCallback(async (first: ExecutionStateResponse, mine: number, flow: { id: string; name: string }): Promise<LaunchOutcome> => {
    const shown = () => generation.current === mine;
    let consoleLog = withNewLines([], 0, first);
    let state = first;
    while (state.output === undefined) {
      const since = consoleLog.length;
      // Straight through the store, not a hook: it keeps working after the page unmounts.
      const answer = await dispatch(flowsApi.endpoints.pollExecutionState.initiate(
        { token: state.executionToken, wait: LONG_POLL_SECONDS, since }, { track: false },
      )).unwrap().then(
        (data) => ({ data, error: undefined }),
        (error: unknown) => ({ data: undefined, error }),
      );
      if (answer.data === undefined) {
        const status = asHttpError(answer.error)?.status;
        // Lost contact: keep asking. A refusal (404, 401 after refresh) will not get better.
        if (status !== NETWORK_STATUS && status !== TIMEOUT_STATUS && status !== undefined && status < 500) {
          dispatch(runForgotten(state.runId));
          return shown() ? { kind: 'refused', status, message: asHttpError(answer.error)?.message ?? text.errors.launchFailed, issues: [], credits: null } : { kind: 'abandoned' };
        }
        if (shown()) setProgress((current) => ({ ...current, reconnecting: true }));
        await wait(POLL_RETRY_MS);
        continue;
      }
      state = answer.data;
      consoleLog = withNewLines(consoleLog, since, state);
      const next = state;
      const lines = consoleLog;
      if (next.output === undefined) {
        dispatch(runProgressed({ runId: next.runId, successfulIterations: next.successfulIterations, totalIterations: next.totalIterations, consoleLog: lines }));
      }
      if (shown()) {
        setProgress((current) => ({
          ...current, phase: 'running', state: next.state, runId: next.runId, consoleLog: lines,
          successfulIterations: next.successfulIterations, totalIterations: next.totalIterations, reconnecting: false,
          machine: next.machine ?? current.machine,
        }));
      }
    }
    const output = state.output;
    // A finished run moved the balance and the history, and the shell tells how it went.
    dispatch(flowsApi.util.invalidateTags(['FlowLogs', 'Subscription']));
    dispatch(runFinished({
      runId: output.data.runId, flowId: flow.id, flowName: flow.name, status: output.status, cost: output.data.cost,
      consoleLog: output.consoleLog, finishedAt: new Date().toISOString(),
      successfulIterations: state.successfulIterations, totalIterations: state.totalIterations,
    }));
    return shown() ? { kind: 'output', output } : { kind: 'abandoned' };
  }, [dispatch]);

  const launch = useCallback(async ({ flowId, flowName, step, inputs, acceptExtraUsage, retry = false, device }: LaunchRequest): Promise<LaunchOutcome> => {
    leaveScreen();
    const mine = generation.current;
    if (!retry || attemptKey.current === null) attemptKey.current = crypto.randomUUID();
    const idempotencyKey = attemptKey.current;
    const machine = device ? { name: device.machineName, online: device.online } : null;
    const localLaunch = device?.localLaunch === true;
    setProgress({ ...idle, phase: 'starting', machine, localLaunch });

    const started = await execute({
      flowId,
      request: {
        step, inputs, json: true, idempotencyKey,
        ...(acceptExtraUsage ? { acceptExtraUsage } : {}),
        ...(device ? { machineId: device.machineId } : {}),
        ...(localLaunch ? { localLaunch: true } : {}),
      },
    });
    if (started.data === undefined) {
      if (generation.current !== mine) return { kind: 'abandoned' };
      const error = asHttpError(started.error);
      const status = error?.status ?? NETWORK_STATUS;
      const credits = notEnoughCreditsSchema.safeParse(error?.data?.details);
      setProgress(idle);
      return {
        kind: 'refused', status, message: error?.message ?? text.errors.launchFailed, issues: error?.data?.issues ?? [],
        credits: status === 402 && credits.success ? credits.data : null,
      };
    }
    const first = started.data;
    if (first.output === undefined) {
      // The run notification follows it from here; at once if the launcher was left before the answer.
      const shownHere = generation.current === mine;
      if (shownHere) onScreen.current = first.runId;
      dispatch(runStarted({
        runId: first.runId, flowId, flowName, successfulIterations: first.successfulIterations, totalIterations: first.totalIterations,
        consoleLog: first.consoleLog, onScreen: shownHere,
      }));
    }
    if (generation.current === mine) {
      token.current = first.executionToken;
      setProgress({
        ...idle, phase: 'running', state: first.state, runId: first.runId, consoleLog: first.consoleLog,
        successfulIterations: first.successfulIterations, totalIterations: first.totalIterations,
        machine: first.machine ?? machine, localLaunch,
      });
    }

    let stopListening = () => {};
    if (localLaunch && first.output === undefined) {
      const robot = await bridge.invoke('LaunchFlow', { flowId, flowInputs: inputs, executionToken: first.executionToken });
      if (!robot.ok) {
        // The run would wait for this PC forever: close it on the server (never charged), and say why.
        void stopExecution(first.executionToken);
        dispatch(runForgotten(first.runId));
        if (generation.current !== mine) return { kind: 'abandoned' };
        token.current = null;
        setProgress((current) => ({ ...current, phase: 'finished', state: 'finished' }));
        return { kind: 'refused', status: 500, message: robot.error.message, issues: [], credits: null };
      }
      const { runId, outputFolder } = robot.data;
      if (generation.current === mine) setProgress((current) => ({ ...current, outputFolder }));
      // The robot's own progress events show before the next poll answers; the poll stays the record.
      stopListening = bridge.on('RobotRun', (event) => {
        if (event.type !== 'progress' || event.runId !== runId || generation.current !== mine) return;
        setProgress((current) => ({ ...current, successfulIterations: event.successfulIterations, totalIterations: event.totalIterations }));
      });
    }

    const outcome = await follow(first, mine, { id: flowId, name: flowName }).finally(stopListening);
    if (outcome.kind === 'output') {
      const output = outcome.output;
      setProgress((current) => ({
        ...current, phase: 'finished', state: 'finished', stopping: false, reconnecting: false,
        // The Output carries the console's end (all of it unless the run wrote more than
        // CONSOLE_LOG_MAX_LINES lines; the history pages through the whole log): it replaces what the polls gathered.
        consoleLog: output.consoleLog.length > 0 ? output.consoleLog : current.consoleLog,
      }));
      // The launch ended: the next Launch is a new attempt with a new key.
      attemptKey.current = null;
    } else if (outcome.kind === 'refused') {
      setProgress((current) => ({ ...current, phase: 'finished', stopping: false }));
    }
    return outcome;
  }, [execute, follow, bridge, stopExecution, leaveScreen, dispatch]);

  const stop = useCallback(async (): Promise<boolean> => {
    if (token.current === null) return false;
    setProgress((current) => ({ ...current, stopping: true }));
    const answer = await stopExecution(token.current);
    if (answer.error !== undefined) {
      setProgress((current) => ({ ...current, stopping: false }));
      return false;
    }
    return true;
  }, [stopExecution]);

  /** Repeat: forget the run (a run still going is left to finish on the server) and its console. */
  const reset = useCallback(() => {
    leaveScreen();
    token.current = null;
    attemptKey.current = null;
    setProgress(idle);
  }, [leaveScreen]);

  return { progress, launch, stop, reset };
}
