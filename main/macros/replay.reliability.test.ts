/**
 * Replay reliability: one recording (made live with the recorder on the test site) replayed 100 times,
 * in one browser with a fresh context each time, gives identical outputs at least 99 times. The figure
 * is printed. Replays run four at a time (a replay is a login with a recorded password, two links and a
 * download); on a 2-core machine shared with other suites one took 2.3 s of wall time, so the file is
 * allowed several minutes. REPLAYS=<n> runs fewer while working on it; REPLAY_DEBUG=1 prints each one.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RobotResult } from '#shared/flows/robot.ts';
import { MACRO_DEFINITION_INPUT } from '#shared/macros/to-flow.ts';
import { DOWNLOAD_NAME, MACRO_SITE_PASSWORD, startMacroSite, type MacroSite } from '../../standins/macro-site/site.ts';
import { keyFileSecretBox } from '../certificates/secret-box.ts';
import { browserLaunchOptions } from '../robots/sdk/browser.ts';
import { playMacroRun } from './player.ts';
import { closeRecording, startRecording } from './recorder.ts';
import { fileMacroSecretStore } from './secrets.ts';
import { browserContext, chromiumFound, chromiumPath, freePort, userPage } from './testing.ts';

const REPLAYS = Number(process.env.REPLAYS ?? 100);
const AT_ONCE = 4;

/** What a replay gave: its result and each output's name and bytes. */
function fingerprint(result: RobotResult): string {
  const files = result.outputs.map((file) => `${file.name}:${createHash('sha256').update(file.data).digest('hex')}`);
  return JSON.stringify({ result: result.result, message: result.message ?? null, usageUnits: result.usageUnits, files });
}

describe.skipIf(!chromiumFound)('replaying one recording 100 times', () => {
  let site: MacroSite;
  let browser: Browser;
  let folder: string;
  beforeAll(async () => {
    site = await startMacroSite({ tls: false });
    browser = await chromium.launch(browserLaunchOptions('linux', chromiumPath, {}));
    folder = mkdtempSync(join(tmpdir(), 'macro-replays-'));
  }, 60_000);
  afterAll(async () => {
    await closeRecording();
    await browser?.close();
    await site?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it(`gives identical outputs at least ${REPLAYS - 1} times out of ${REPLAYS}`, async () => {
    const secrets = fileMacroSecretStore(folder, keyFileSecretBox(join(folder, 'secret.key')));
    const port = await freePort();
    const recording = await startRecording({ startUrl: `${site.url}/login`, chromiumPath, env: { AUTOASESOR_RECORDER_HEADLESS: '1', AUTOASESOR_RECORDER_CDP_PORT: String(port) }, secrets });
    const user = await userPage(port);
    try {
      const { page } = user;
      await page.getByRole('textbox', { name: 'Usuario' }).click();
      await page.keyboard.type('gestor');
      await page.getByRole('textbox', { name: 'Contraseña' }).click();
      await page.keyboard.type(MACRO_SITE_PASSWORD);
      await page.keyboard.press('Enter');
      await page.getByRole('link', { name: 'Inicio' }).click();
      await page.getByRole('link', { name: 'Descargas' }).click();
      const download = page.waitForEvent('download');
      await page.getByRole('link', { name: 'Descargar informe' }).click();
      await download;
      await expect.poll(() => recording.steps().at(-1)?.type).toBe('download');
    } finally {
      await user.browser.close().catch(() => undefined);
    }
    const macro = await recording.stop();
    expect(macro.steps.map((step) => step.type)).toEqual(['fill', 'fill', 'press', 'click', 'click', 'download']);

    const started = Date.now();
    const fingerprints: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < REPLAYS) {
        next += 1;
        const run = browserContext(browser, { inputs: { [MACRO_DEFINITION_INPUT]: macro } });
        try {
          const t0 = Date.now();
          fingerprints.push(fingerprint(await playMacroRun(run.context, secrets)));
          if (process.env.REPLAY_DEBUG) console.log(`replay ${fingerprints.length} ${Date.now() - t0} ms`);
        } catch (error) {
          fingerprints.push(`threw: ${String(error)}`);
        } finally {
          await run.close();
        }
      }
    };
    await Promise.all(Array.from({ length: AT_ONCE }, worker));
    const counts = new Map<string, number>();
    for (const print of fingerprints) counts.set(print, (counts.get(print) ?? 0) + 1);
    const [common, identical] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]!;
    console.log(`Replay reliability: ${identical}/${REPLAYS} replays gave identical outputs (${((Date.now() - started) / REPLAYS).toFixed(0)} ms a replay, ${AT_ONCE} at a time)`);
    for (const [print, count] of counts) if (print !== common) console.log(`  ${count}× ${print}`);
    expect(JSON.parse(common)).toMatchObject({ result: 'Success', files: [expect.stringMatching(new RegExp(`^${DOWNLOAD_NAME}:`))] });
    expect(identical).toBeGreaterThanOrEqual(REPLAYS - 1);
  }, 400_000);
});
