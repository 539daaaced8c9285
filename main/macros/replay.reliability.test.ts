/**
 * Replay reliability: one recording (made live with the recorder on the test site) replayed in one
 * browser with a fresh context each time gives identical outputs, at most one replay in 100 differing.
 * The figure is printed, with any replay that differed. Replays run four at a time (a replay is a login
 * with a recorded password, two links and a download). REPLAYS=<n> changes how many.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOWNLOAD_NAME, startMacroSite, type MacroSite } from '../../standins/macro-site/site.ts';
import { keyFileSecretBox } from '../certificates/secret-box.ts';
import { browserLaunchOptions } from '../robots/sdk/browser.ts';
import { closeRecording } from './recorder.ts';
import { fileMacroSecretStore } from './secrets.ts';
import { chromiumFound, chromiumPath, recordLoginAndDownload, replayMany } from './testing.ts';

/**
 * 25 here, within the unit suite's time; `npm run bench` replays it 100 times (scripts/bench/macros.ts)
 * and prints the figure the issue asks for (≥ 99 identical in 100).
 */
const REPLAYS = Number(process.env.REPLAYS ?? 25);
/** At most one replay in a hundred may differ: all 25 of 25, 99 of 100. */
const REQUIRED = REPLAYS - Math.floor(REPLAYS / 100);
const AT_ONCE = 4;

describe.skipIf(!chromiumFound)(`replaying one recording ${REPLAYS} times`, () => {
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

  it(`gives identical outputs at least ${REQUIRED} times out of ${REPLAYS}`, async () => {
    const secrets = fileMacroSecretStore(folder, keyFileSecretBox(join(folder, 'secret.key')));
    const macro = await recordLoginAndDownload(site.url, secrets);
    expect(macro.steps.map((step) => step.type)).toEqual(['fill', 'fill', 'press', 'click', 'click', 'download']);

    const replays = await replayMany(browser, macro, secrets, REPLAYS, AT_ONCE);
    console.log(replays.report);
    const { common, identical } = replays;
    expect(JSON.parse(common)).toMatchObject({ result: 'Success', files: [expect.stringMatching(new RegExp(`^${DOWNLOAD_NAME}:`))] });
    expect(identical).toBeGreaterThanOrEqual(REQUIRED);
  }, 240_000);
});
