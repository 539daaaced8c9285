import { macroHost } from '../macros/host.ts';
import { previewScrape } from '../macros/scrape.ts';
import { BridgeFailure, type Handler } from './context.ts';
import { certificateOf, firstLine } from './StartMacroRecording.ts';

/**
 * The scraper's preview (main/macros/scrape.ts): opens the page headless in the robot's Chromium (with the
 * chosen certificate) and answers its tables and repeated blocks with Playwright selectors and first rows.
 */
export const PreviewScrape: Handler<'PreviewScrape'> = async ({ url, certificateFingerprint }, ctx) => {
  const certificate = certificateFingerprint === undefined ? undefined : await certificateOf(certificateFingerprint, ctx);
  const { chromiumPath, ignoreHTTPSErrors } = macroHost(process.env);
  try {
    return { candidates: await previewScrape({ url, ...(certificate && { certificate }), chromiumPath, env: process.env, ignoreHTTPSErrors }) };
  } catch (error) {
    throw new BridgeFailure('FAILED', `No se ha podido analizar ${url}: ${firstLine(error)}`);
  }
};
