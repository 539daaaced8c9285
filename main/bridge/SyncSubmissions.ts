import type { Handler } from './context.ts';

/**
 * 'Altas Automáticas S. RED': the selected registrations' RED records from the server, each through RED
 * Online's ATR01 with the chosen certificate (or one AFI remittance for SILTRA), and each result reported
 * to the server. A registration the server cannot build a record for comes back as an error with its reason.
 */
export const SyncSubmissions: Handler<'SyncSubmissions'> = async ({ submissionIds, certificate, channel }, ctx) =>
  ctx.altas.syncToRed(submissionIds, certificate, channel === undefined ? {} : { channel });
