import type { Handler } from './context.ts';

/** Whether this PC holds a device token, for which server and machine, and the last problem reaching it. */
export const GetDeviceStatus: Handler<'GetDeviceStatus'> = async (_args, ctx) => ctx.device.status();
