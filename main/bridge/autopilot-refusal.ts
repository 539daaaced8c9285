import { AutopilotRefusal } from '../autopilot/types.ts';
import { BridgeFailure } from './context.ts';

/**
 * Asks the autopilot something. Its expected refusals (an app that cannot load yet, a running task, no
 * device link) reach the window with the same code and Spanish message; anything else stays a failure.
 */
export async function askAutopilot<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (error instanceof AutopilotRefusal) throw new BridgeFailure(error.code, error.message);
    throw error;
  }
}
