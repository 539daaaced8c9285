/**
 * The recorder's three commands through the bridge, as the screen calls them: start (headless here),
 * poll the live steps while the user clicks, stop with the draft; one recording at a time; a start
 * address or a certificate that does not fit is refused before any browser opens.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMacro } from '#shared/macros/definition.ts';
import { startMacroSite, type MacroSite } from '../../standins/macro-site/site.ts';
import { closeRecording } from '../macros/recorder.ts';
import { chromiumFound, chromiumPath, freePort, userPage } from '../macros/testing.ts';
import { dispatch } from './registry.ts';
import { fakeContext } from './test-context.ts';

describe('StartMacroRecording', () => {
  it('refuses a start address that is not http(s) and a certificate that is not on this PC', async () => {
    expect(await dispatch('StartMacroRecording', { startUrl: 'ftp://sede.example' }, fakeContext())).toMatchObject({ ok: false, error: { code: 'BAD_ARGS' } });
    expect(await dispatch('StartMacroRecording', { startUrl: 'https://sede.example', certificateFingerprint: 'a'.repeat(64) }, fakeContext())).toEqual({
      ok: false,
      error: { code: 'NOT_FOUND', message: 'El certificado elegido no está en este dispositivo' },
    });
  });
});

describe.skipIf(!chromiumFound)('StartMacroRecording, GetMacroRecording and StopMacroRecording in Chromium', () => {
  let site: MacroSite;
  let folder: string;
  const saved = { ...process.env };
  beforeAll(async () => {
    site = await startMacroSite({ tls: false });
    folder = mkdtempSync(join(tmpdir(), 'bridge-recording-'));
    Object.assign(process.env, { CHROMIUM_PATH: chromiumPath, AUTOASESOR_RECORDER_HEADLESS: '1', AUTOASESOR_MACRO_SECRETS: folder, AUTOASESOR_RECORDER_CDP_PORT: String(await freePort()) });
  }, 60_000);
  afterAll(async () => {
    await closeRecording();
    for (const key of ['CHROMIUM_PATH', 'AUTOASESOR_RECORDER_HEADLESS', 'AUTOASESOR_MACRO_SECRETS', 'AUTOASESOR_RECORDER_CDP_PORT']) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
    await site?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('records live steps and stops with a macro draft; a second start while one is open is refused', async () => {
    const ctx = fakeContext();
    const started = await dispatch('StartMacroRecording', { startUrl: `${site.url}/` }, ctx);
    expect(started).toMatchObject({ ok: true, data: { recordingId: expect.any(String) } });
    const recordingId = (started as { data: { recordingId: string } }).data.recordingId;
    expect(await dispatch('StartMacroRecording', { startUrl: `${site.url}/` }, ctx)).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(await dispatch('GetMacroRecording', { recordingId }, ctx)).toEqual({ ok: true, data: { steps: [], open: true } });

    const user = await userPage(Number(process.env.AUTOASESOR_RECORDER_CDP_PORT));
    await user.page.getByRole('link', { name: 'Listado de empresas' }).click();
    await user.page.getByRole('link', { name: 'Siguiente' }).click();
    await user.browser.close();
    await expect.poll(async () => ((await dispatch('GetMacroRecording', { recordingId }, ctx)) as { data: { steps: unknown[] } }).data.steps.length).toBe(2);

    const stopped = await dispatch('StopMacroRecording', { recordingId }, ctx);
    expect(stopped.ok).toBe(true);
    const { macro } = (stopped as { data: { macro: unknown } }).data;
    expect(parseMacro(macro).ok).toBe(true);
    expect(macro).toMatchObject({
      startUrl: `${site.url}/`,
      steps: [
        { id: 'p1', type: 'click', target: 'internal:role=link[name="Listado de empresas"i]' },
        { id: 'p2', type: 'click', target: 'internal:role=link[name="Siguiente"i]' },
      ],
    });
    expect(await dispatch('GetMacroRecording', { recordingId }, ctx)).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  }, 60_000);
});
