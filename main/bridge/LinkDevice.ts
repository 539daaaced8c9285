import type { Handler } from './context.ts';

/**
 * Keeps the device token a signed-in user obtained for this PC, once the server has confirmed it
 * (GET /api/device/me). A refused token answers NOT_LINKED with the server's message and keeps nothing.
 */
export const LinkDevice: Handler<'LinkDevice'> = async ({ serverUrl, deviceToken }, ctx) => ctx.device.link(serverUrl, deviceToken);
