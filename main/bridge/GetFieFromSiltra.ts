import { orderedRange } from '../siltra/dates.ts';
import type { Handler } from './context.ts';

/**
 * The FIE files SILTRA received for one day or a range (input-msRange), from the SILTRA folder and/or
 * FIER with the chosen certificate (input-certificate), uploaded to the server with the device token.
 * Nothing found answers found 0 with the §8 toast text; the screen shows it.
 */
export const GetFieFromSiltra: Handler<'GetFieFromSiltra'> = async ({ flowInputs, source }, ctx) => {
  const { from, to } = orderedRange(flowInputs['input-msRange']);
  return ctx.fie.fetchFromSiltra({ certificate: flowInputs['input-certificate'], from, to, source: source ?? 'both' });
};
