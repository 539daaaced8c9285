import type { Handler } from './context.ts';

/** The hash identifies this PC to the server (machines, remote launches); it never changes for a machine. */
export const GetMachineHashCode: Handler<'GetMachineHashCode'> = async (_args, ctx) => ctx.machine();
