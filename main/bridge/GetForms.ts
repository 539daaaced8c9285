import type { Handler } from './context.ts';

/**
 * The /altasybajas screen's to-do: the firm's registrations not yet in RED and the RED-registered ones
 * not yet in A3, as the server answers them to this PC's device token (GET form-to-flow-submission/pending).
 */
export const GetForms: Handler<'GetForms'> = async (_args, ctx) => ctx.altas.pending();
