import type { Handler } from './context.ts';

/**
 * Links a mailbox: the system browser at the provider, its answer on a loopback listener. Answers the
 * code and its verifier for the renderer to hand to the server; this PC keeps no token (main/mail/types.ts).
 */
export const OAuthConnect: Handler<'OAuthConnect'> = async (args, ctx) => ctx.mail.connect(args);
