/**
 * The scraper's preview on the test site in Chromium: the paginated table and the cards are found with
 * selectors the player accepts, and an extractTable / extractList step made from them copies the same rows.
 */
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MACRO_DEFINITION_INPUT } from '#shared/macros/to-flow.ts';
import { CARDS, LIST_HEADER, listRow, PAGE_SIZE, startMacroSite, type MacroSite } from '../../standins/macro-site/site.ts';
import { browserLaunchOptions } from '../robots/sdk/browser.ts';
import { playMacroRun } from './player.ts';
import { previewScrape } from './scrape.ts';
import { browserContext, chromiumFound, chromiumPath, macro, sheetsOf } from './testing.ts';

describe.skipIf(!chromiumFound)('the scraper preview on the test site', () => {
  let site: MacroSite;
  let browser: Browser;
  beforeAll(async () => {
    site = await startMacroSite({ tls: false });
    browser = await chromium.launch(browserLaunchOptions('linux', chromiumPath, {}));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  it('finds the table by its role and name, with its header and rows', async () => {
    const candidates = await previewScrape({ url: `${site.url}/listado`, chromiumPath, env: {} });
    expect(candidates[0]).toEqual({
      kind: 'table',
      target: 'internal:role=table[name="Empresas"s]',
      header: [...LIST_HEADER],
      rows: Array.from({ length: PAGE_SIZE }, (_, index) => listRow(index)),
      total: PAGE_SIZE,
    });
  }, 60_000);

  it('finds repeated blocks (≥ 3 siblings alike) with a column per field, and the player copies them', async () => {
    const candidates = await previewScrape({ url: `${site.url}/tarjetas`, chromiumPath, env: {} });
    const cards = candidates.find((candidate) => candidate.kind === 'list' && candidate.total === CARDS.length);
    expect(cards).toEqual({
      kind: 'list',
      target: '#planes > div.tarjeta',
      fields: [{ column: 'Título', target: 'h3' }, { column: 'precio', target: 'span.precio' }],
      header: ['Título', 'precio'],
      rows: CARDS.map((card) => [card.title, card.price]),
      total: CARDS.length,
    });
    const run = browserContext(browser, { inputs: { [MACRO_DEFINITION_INPUT]: macro({ startUrl: `${site.url}/tarjetas`, steps: [{ id: 'l', type: 'extractList', target: cards!.target, fields: cards!.fields! }] }) } });
    const result = await playMacroRun(run.context, { reveal: async () => null }).finally(() => run.close());
    expect(sheetsOf(result.outputs[0]!.data)['Datos']).toEqual([cards!.header, ...cards!.rows]);
  }, 60_000);
});
