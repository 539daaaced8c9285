import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_HEADER, startMacroSite, type MacroSite } from '../../standins/macro-site/site.ts';
import { chromiumFound, chromiumPath } from '../macros/testing.ts';
import { dispatch } from './registry.ts';
import { fakeContext } from './test-context.ts';

describe('PreviewScrape', () => {
  it('refuses an address that is not http(s) and a certificate that is not on this PC', async () => {
    expect(await dispatch('PreviewScrape', { url: 'file:///etc/passwd' }, fakeContext())).toMatchObject({ ok: false, error: { code: 'BAD_ARGS' } });
    expect(await dispatch('PreviewScrape', { url: 'https://sede.example', certificateFingerprint: 'b'.repeat(64) }, fakeContext())).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });
});

describe.skipIf(!chromiumFound)('PreviewScrape in Chromium', () => {
  let site: MacroSite;
  const saved = process.env.CHROMIUM_PATH;
  beforeAll(async () => {
    site = await startMacroSite({ tls: false });
    process.env.CHROMIUM_PATH = chromiumPath;
  });
  afterAll(async () => {
    if (saved === undefined) delete process.env.CHROMIUM_PATH;
    else process.env.CHROMIUM_PATH = saved;
    await site?.close();
  });

  it('answers the page\'s table with its selector, header and first rows', async () => {
    const answer = await dispatch('PreviewScrape', { url: `${site.url}/listado` }, fakeContext());
    expect(answer).toMatchObject({ ok: true, data: { candidates: [{ kind: 'table', target: 'internal:role=table[name="Empresas"s]', header: [...LIST_HEADER], total: 10 }] } });
  }, 60_000);

  it('an address nothing answers fails with a Spanish message', async () => {
    const answer = await dispatch('PreviewScrape', { url: 'http://127.0.0.1:9/' }, fakeContext());
    expect(answer).toMatchObject({ ok: false, error: { code: 'FAILED', message: expect.stringMatching(/^No se ha podido analizar http:\/\/127\.0\.0\.1:9\/: /) } });
  }, 60_000);
});
