import type { BuiltInFlow } from '../../flows/catalogue.ts';

/**
 * The flows pool.test.ts runs in worker threads: the worker reads only a flow's id and loads its robot.
 * The robot lives in a module of its own, so the test can see when a worker loaded it.
 */
export const THREAD_FLOW_ID = 'robot-del-hilo';

export const builtInFlows: readonly BuiltInFlow[] = [{ definition: { id: THREAD_FLOW_ID }, loadRobot: async () => (await import('./robot.ts')).default }];
