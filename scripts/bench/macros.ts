/**
 * Macros' figures for `npm run bench` (issue 41), in real Chromium on the macro test site
 * (standins/macro-site):
 *  - replay reliability: one recording made live with the recorder (a login with a recorded password,
 *    two links, a download) replayed 100 times, a fresh context each, four at a time; the issue asks for
 *    at least 99 identical (the unit suite replays it 25 times);
 *  - a loop over a 1,000-row workbook on the alta form (goto, two fills, a click, a copied number per
 *    row): time, rows a second, rows OK, and this process's peak RSS (the player's; Chromium's own
 *    processes are apart).
 * `npx tsx scripts/bench/macros.ts` runs it alone; MACRO_BENCH_ROWS changes the loop's rows.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { MACRO_DEFINITION_INPUT } from '#shared/macros/to-flow.ts';
import { keyFileSecretBox } from '../../main/certificates/secret-box.ts';
import { playMacroRun } from '../../main/macros/player.ts';
import { fileMacroSecretStore } from '../../main/macros/secrets.ts';
import { browserContext, chromiumFound, chromiumPath, macro, nifOf, recordLoginAndDownload, replayMany, workbookFile } from '../../main/macros/testing.ts';
import { browserLaunchOptions } from '../../main/robots/sdk/browser.ts';
import { startMacroSite } from '../../standins/macro-site/site.ts';
import { benchMain } from './bench-main.ts';

const REPLAYS = 100;
const LOOP_ROWS = Number(process.env.MACRO_BENCH_ROWS ?? 1_000);

export async function runMacrosBench(): Promise<string[]> {
  if (!chromiumFound) return [`(no Chromium at ${chromiumPath})`];
  const lines: string[] = [];
  const site = await startMacroSite({ tls: false });
  const browser = await chromium.launch(browserLaunchOptions('linux', chromiumPath, {}));
  const folder = await mkdtemp(join(tmpdir(), 'macro-bench-'));
  try {
    const secrets = fileMacroSecretStore(folder, keyFileSecretBox(join(folder, 'secret.key')));
    const recorded = await recordLoginAndDownload(site.url, secrets);
    lines.push((await replayMany(browser, recorded, secrets, REPLAYS, 4)).report);

    const rows = Array.from({ length: LOOP_ROWS }, (_, index) => [nifOf(30_000_000 + index), `Persona ${index + 1}`]);
    const loop = macro({
      startUrl: `${site.url}/alta`,
      charge: { per: 'row', slans: 1 },
      inputs: [{ key: 'plantilla', label: 'Plantilla', kind: 'workbook', required: true }],
      steps: [{
        id: 'filas', type: 'forEachRow', input: 'plantilla', steps: [
          { id: 'ir', type: 'goto', url: { kind: 'text', text: `${site.url}/alta` } },
          { id: 'nif', type: 'fill', target: 'internal:role=textbox[name="NIF"i]', value: { kind: 'column', column: 'NIF' } },
          { id: 'nombre', type: 'fill', target: 'internal:role=textbox[name="Nombre"i]', value: { kind: 'column', column: 'Nombre' } },
          { id: 'registrar', type: 'click', target: 'internal:role=button[name="Registrar"i]' },
          { id: 'numero', type: 'extractText', target: 'internal:testid=[data-testid="numero-alta"s]', column: 'Número de alta' },
        ],
      }],
    });
    const run = browserContext(browser, { inputs: { [MACRO_DEFINITION_INPUT]: loop }, files: { plantilla: [workbookFile('plantilla.xlsx', [['NIF', 'Nombre'], ...rows])] } });
    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 200);
    const started = Date.now();
    try {
      const result = await playMacroRun(run.context, secrets);
      const seconds = (Date.now() - started) / 1000;
      lines.push(
        `Loop over a ${LOOP_ROWS.toLocaleString('en')}-row workbook: ${result.result}, ${result.usageUnits} rows OK in ${seconds.toFixed(1)} s ` +
          `(${(LOOP_ROWS / seconds).toFixed(1)} rows/s), player process peak RSS ${(peakRss / 1024 / 1024).toFixed(0)} MiB`,
      );
    } finally {
      clearInterval(sampler);
      await run.close();
    }
  } finally {
    await browser.close();
    await site.close();
    await rm(folder, { recursive: true, force: true });
  }
  return lines;
}

await benchMain(import.meta.url, runMacrosBench, async () => null);
