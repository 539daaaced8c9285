import { NOT_LINKED_MESSAGE } from '../device/errors.ts';
import type { Handler } from './context.ts';
import { BridgeFailure } from './context.ts';

/**
 * Runs here the run the window has just created on the server (POST execution with this machine and
 * localLaunch): leases it with the device token and starts its robot in a child process. The robot
 * gets the inputs the server checked and kept with the run, not flowInputs, so what runs is what was
 * checked and charged; flowId must be the run's flow.
 */
export const LaunchFlow: Handler<'LaunchFlow'> = async ({ flowId, executionToken }, ctx) => {
  const status = await ctx.device.status();
  if (!status.linked) throw new BridgeFailure('NOT_LINKED', status.problem ?? NOT_LINKED_MESSAGE);
  return ctx.robots.launch(executionToken, flowId);
};
