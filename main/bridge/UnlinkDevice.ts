import type { Handler } from './context.ts';

/** Forgets the device token on this PC: it takes no more runs until it is linked again. */
export const UnlinkDevice: Handler<'UnlinkDevice'> = async (_args, ctx) => ctx.device.unlink();
