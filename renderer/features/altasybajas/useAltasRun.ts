import { useCallback } from 'react';
import type { ExecutionStateResponse, Output } from '#shared/api/flows.ts';
import { flowsApi, useExecuteMutation, useStopExecutionMutation } from '../../api/flows.ts';
import { NETWORK_STATUS, TIMEOUT_STATUS } from '../../api/http.ts';
import { useAppDispatch, useBridge } from '../../app/hooks.ts';
import { asHttpError } from '../../ui/forms.ts';
import { altas as text } from '../../i18n/es-altas.ts';

/** Seconds the server may hold a state request open (as the launcher's long poll). */
const LONG_POLL_SECONDS = 20;
const POLL_RETRY_MS = 2000;
const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export type AltasRunOutcome = { ok: true; output: Output } | { ok: false; message: string };

export interface AltasRunRequest {
  flowId: string;
  /** The section that launches (the flows' 'datos'). */
  step: string;
  inputs: Record<string, unknown>;
  /** This PC's machine: the run is launched here, like the launcher's 'Este dispositivo'. */
  machineId: string;
}

/**
 * Issue 44 (5): the altas screen's RED and A3 buttons on the desktop go through the same path as any
 * launch on this PC, so each leaves its run in the history (with its cost and log): POST execution with
 * this machine and localLaunch, LaunchFlow starts its local process here, and the run's state is
 * long-polled until it has its Output. A refusal (402, 400, the bridge's) comes back as its Spanish message.
 */
export function useAltasRun(): (request: AltasRunRequest) => Promise<AltasRunOutcome> {
  const bridge = useBridge();
  const dispatch = useAppDispatch();
  const [execute] = useExecuteMutation();
  const [stopExecution] = useStopExecutionMutation();

  return useCallback(async ({ flowId, step, inputs, machineId }) => {
    const started = await execute({ flowId, request: { step, inputs, json: true, idempotencyKey: crypto.randomUUID(), machineId, localLaunch: true } });
    if (started.data === undefined) return { ok: false, message: asHttpError(started.error)?.message ?? text.failed };
    let state: ExecutionStateResponse = started.data;
    if (state.output === undefined) {
      const robot = await bridge.invoke('LaunchFlow', { flowId, flowInputs: inputs, executionToken: state.executionToken });
      if (!robot.ok) {
        // The run would wait for this PC for ever: close it on the server (never charged).
        void stopExecution(state.executionToken);
        return { ok: false, message: robot.error.message };
      }
    }
    let since = state.consoleLog.length;
    while (state.output === undefined) {
      const answer = await dispatch(flowsApi.endpoints.pollExecutionState.initiate({ token: state.executionToken, wait: LONG_POLL_SECONDS, since }, { track: false }))
        .unwrap()
        .then((data) => ({ data, error: undefined }), (error: unknown) => ({ data: undefined, error }));
      if (answer.data === undefined) {
        const status = asHttpError(answer.error)?.status;
        if (status !== NETWORK_STATUS && status !== TIMEOUT_STATUS && status !== undefined && status < 500) {
          return { ok: false, message: asHttpError(answer.error)?.message ?? text.failed };
        }
        await wait(POLL_RETRY_MS);
        continue;
      }
      state = answer.data;
      since += state.consoleLog.length;
    }
    // A finished run moved the balance and the history.
    dispatch(flowsApi.util.invalidateTags(['FlowLogs', 'Subscription']));
    return { ok: true, output: state.output };
  }, [bridge, dispatch, execute, stopExecution]);
}
