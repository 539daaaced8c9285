/**
 * The recorder against the test site: a headless recording browser (AUTOASESOR_RECORDER_HEADLESS) driven
 * over its debugging port (AUTOASESOR_RECORDER_CDP_PORT) with Playwright's input, as the user's clicks
 * and typing would be. Pins what Playwright's private recorder gives (recorder.ts), checks the steps
 * and the draft, the password sealed on this machine and never in the macro, and replays the draft.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMacro, type MacroDefinition } from '#shared/macros/definition.ts';
import { MACRO_DEFINITION_INPUT } from '#shared/macros/to-flow.ts';
import { DOWNLOAD_NAME, DOWNLOAD_TEXT, MACRO_SITE_PASSWORD, startMacroSite, type MacroSite } from '../../standins/macro-site/site.ts';
import { keyFileSecretBox } from '../certificates/secret-box.ts';
import { browserLaunchOptions } from '../robots/sdk/browser.ts';
import { playMacroRun } from './player.ts';
import { closeRecording, recordingOf, startRecording, RecordingBusy } from './recorder.ts';
import { fileMacroSecretStore } from './secrets.ts';
import { browserContext, chromiumFound, chromiumPath, driveTheSite, freePort, userPage } from './testing.ts';

function expectedDraft(url: string, ref: string): MacroDefinition {
  const link = (name: string) => `internal:role=link[name="${name}"i]`;
  const textbox = (name: string) => `internal:role=textbox[name="${name}"i]`;
  const steps: MacroDefinition['steps'] = [
    { type: 'click', target: link('Iniciar sesión') },
    { type: 'fill', target: textbox('Usuario'), value: { kind: 'text', text: 'gestor' } },
    { type: 'fill', target: textbox('Contraseña'), value: { kind: 'secret', ref } },
    { type: 'press', target: textbox('Contraseña'), key: 'Enter' },
    { type: 'click', target: link('Inicio') },
    { type: 'click', target: link('Alta de trabajador') },
    { type: 'fill', target: textbox('NIF'), value: { kind: 'text', text: '12345678Z' } },
    { type: 'fill', target: textbox('Nombre'), value: { kind: 'text', text: 'Ana' } },
    { type: 'select', target: 'internal:label="Contrato"i', value: { kind: 'text', text: 'Temporal' } },
    { type: 'check', target: 'internal:role=checkbox[name="Jornada completa"i]', checked: false },
    { type: 'click', target: 'internal:role=button[name="Registrar"i]' },
    { type: 'click', target: link('Inicio') },
    { type: 'click', target: link('Subir un fichero') },
    { type: 'upload', target: 'internal:role=button[name="Fichero"i]', input: 'fichero' },
    { type: 'click', target: 'internal:role=button[name="Enviar"i]' },
    { type: 'click', target: link('Inicio') },
    { type: 'click', target: link('Descargas') },
    { type: 'download', target: link('Descargar informe') },
  ].map((step, index) => ({ id: `p${index + 1}`, ...step }) as MacroDefinition['steps'][number]);
  return {
    schemaVersion: 1,
    name: 'Grabación 02/12/2026 15:04',
    description: '',
    startUrl: `${url}/`,
    inputs: [{ key: 'fichero', label: 'Fichero para subir', kind: 'file', required: true, help: 'Al grabar se subió «nominas.txt»' }],
    steps,
    charge: { per: 'run', slans: 1 },
    outputFileName: 'resultado.xlsx',
    timeLimitSeconds: 600,
  };
}

describe.skipIf(!chromiumFound)('the macro recorder on the test site', () => {
  let site: MacroSite;
  let folder: string;
  beforeAll(async () => {
    site = await startMacroSite({ tls: false });
    folder = mkdtempSync(join(tmpdir(), 'macro-recorder-'));
  }, 60_000);
  afterAll(async () => {
    await closeRecording();
    await site?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('records login, links, typing, a select, a checkbox, an upload and a download as the expected steps', async () => {
    const secrets = fileMacroSecretStore(join(folder, 'secrets'), keyFileSecretBox(join(folder, 'secrets', 'secret.key')));
    const port = await freePort();
    const recording = await startRecording({
      startUrl: `${site.url}/`,
      chromiumPath,
      env: { AUTOASESOR_RECORDER_HEADLESS: '1', AUTOASESOR_RECORDER_CDP_PORT: String(port) },
      secrets,
      now: () => new Date(2026, 11, 2, 15, 4),
    });
    await expect(startRecording({ startUrl: `${site.url}/`, chromiumPath, env: { AUTOASESOR_RECORDER_HEADLESS: '1' }, secrets })).rejects.toThrow(RecordingBusy);
    const { browser, page } = await userPage(port);
    try {
      await driveTheSite(page);
      await expect.poll(() => recording.steps().at(-1)?.type).toBe('download');
    } finally {
      await browser.close().catch(() => undefined);
    }
    expect(recordingOf(recording.id)).toBe(recording);
    const draft = await recording.stop();
    expect(recording.open).toBe(false);
    expect(parseMacro(draft)).toEqual({ ok: true, macro: draft });

    const password = draft.steps[2]?.type === 'fill' ? draft.steps[2].value : null;
    expect(password).toMatchObject({ kind: 'secret' });
    const ref = password?.kind === 'secret' ? password.ref : '';
    expect(draft).toEqual(expectedDraft(site.url, ref));
    // The password is sealed on this machine, and nowhere in clear: not in the macro, not in the store's files.
    expect(JSON.stringify(draft)).not.toContain(MACRO_SITE_PASSWORD);
    expect(await secrets.reveal(ref)).toBe(MACRO_SITE_PASSWORD);
    for (const name of readdirSync(join(folder, 'secrets'))) expect(readFileSync(join(folder, 'secrets', name)).includes(MACRO_SITE_PASSWORD)).toBe(false);

    // The draft replays as recorded: the same login, alta, upload and download.
    const browserForReplay = await chromium.launch(browserLaunchOptions('linux', chromiumPath, {}));
    try {
      const run = browserContext(browserForReplay, { inputs: { [MACRO_DEFINITION_INPUT]: draft }, files: { fichero: [{ name: 'otro.txt', data: new TextEncoder().encode('hola') }] } });
      const result = await playMacroRun(run.context, secrets).finally(() => run.close());
      expect(result.message).toBeUndefined();
      expect(result.result).toBe('Success');
      expect(result.outputs.map((file) => file.name)).toEqual([DOWNLOAD_NAME]);
      expect(new TextDecoder().decode(result.outputs[0]!.data)).toBe(DOWNLOAD_TEXT);
    } finally {
      await browserForReplay.close();
    }
  }, 60_000);
});
