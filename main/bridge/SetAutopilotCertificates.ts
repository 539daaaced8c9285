import type { Handler } from './context.ts';

/** The certificates an app works with, by fingerprint and common name; the certificates stay in their store. */
export const SetAutopilotCertificates: Handler<'SetAutopilotCertificates'> = async ({ app, certificates }, ctx) => ctx.autopilot.setCertificates(app, certificates);
