import type { Handler } from './context.ts';

/** The apps, their switches and certificates, and the task cache of this PC, as the panel shows them. */
export const GetAutopilot: Handler<'GetAutopilot'> = async (_args, ctx) => ctx.autopilot.snapshot();
