/**
 * Test-only helpers of the macro tests: a real Chromium (skipped when absent outside CI, like
 * standins/portal/chromium.test.ts), a DesktopRobotContext over one browser with a fresh context per
 * run, and macros written short.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import * as XLSX from 'xlsx';
import type { RobotFile, RobotResult } from '#shared/flows/robot.ts';
import { MACRO_DEFINITION_INPUT } from '#shared/macros/to-flow.ts';
import { MACRO_SCHEMA_VERSION, type MacroDefinition } from '#shared/macros/definition.ts';
import type { DesktopRobotContext } from '../../resources/flows/_lib/desktop.ts';
import { MACRO_SITE_PASSWORD } from '../../standins/macro-site/site.ts';
import { playMacroRun } from './player.ts';
import { closeRecording, startRecording } from './recorder.ts';
import type { MacroSecretStore } from './secrets.ts';

export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const chromiumFound = existsSync(chromiumPath);
if (!chromiumFound && process.env.CI) throw new Error(`No Chromium at ${chromiumPath} (set CHROMIUM_PATH); CI must run the macro tests.`);

export function macro(fields: Partial<MacroDefinition> & Pick<MacroDefinition, 'startUrl' | 'steps'>): MacroDefinition {
  return {
    schemaVersion: MACRO_SCHEMA_VERSION,
    name: 'Robot de prueba',
    description: '',
    inputs: [],
    charge: { per: 'run', slans: 1 },
    outputFileName: 'resultado.xlsx',
    timeLimitSeconds: 600,
    ...fields,
  };
}

export interface PlayedLog {
  lines: { level: string; text: string }[];
  progress: [number, number][];
}

/** A context whose openBrowser opens a fresh context of `browser` (no certificate), closed by `close()`. */
export function browserContext(
  browser: Browser,
  parts: { inputs?: Record<string, unknown>; files?: Record<string, RobotFile[]>; signal?: AbortSignal } = {},
): { context: DesktopRobotContext; log: PlayedLog; close(): Promise<void> } {
  const log: PlayedLog = { lines: [], progress: [] };
  const opened: BrowserContext[] = [];
  const context: DesktopRobotContext = {
    inputs: parts.inputs ?? {},
    files: parts.files ?? {},
    settings: {},
    startedAt: new Date('2026-12-02T10:00:00Z'),
    signal: parts.signal ?? new AbortController().signal,
    log: (level, text) => log.lines.push({ level, text }),
    progress: (successful, total) => log.progress.push([successful, total]),
    openBrowser: async () => {
      const made = await browser.newContext({ acceptDownloads: true, ignoreHTTPSErrors: true });
      opened.push(made);
      return made.newPage();
    },
  };
  return { context, log, close: async () => void (await Promise.allSettled(opened.map((made) => made.close()))) };
}

/** An .xlsx of the rows (first row: the header). */
export function workbookFile(name: string, rows: string[][]): RobotFile {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Hoja1');
  return { name, data: new Uint8Array(XLSX.write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer) };
}

/** Every sheet of an output workbook as rows of text. */
export function sheetsOf(data: Uint8Array): Record<string, string[][]> {
  const book = XLSX.read(data, { type: 'array' });
  return Object.fromEntries(book.SheetNames.map((name) => [name, XLSX.utils.sheet_to_json<string[]>(book.Sheets[name]!, { header: 1, raw: false, defval: '' })]));
}

const NIF_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';
/** A valid NIF from a number (up to 8 digits). */
export function nifOf(number: number): string {
  return `${String(number).padStart(8, '0')}${NIF_LETTERS[number % 23]}`;
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The recording browser's page, as the user sees it, over Chromium's debugging port. */
export async function userPage(port: number): Promise<{ browser: Browser; page: Page }> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  const page = browser.contexts().flatMap((context) => context.pages()).find((candidate) => candidate.url().startsWith('http'));
  if (!page) throw new Error('No recording page');
  return { browser, page };
}

/** What the user does in the recording browser: log in, an alta, an upload and a download, all by clicking and typing. */
export async function driveTheSite(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Iniciar sesión' }).click();
  await page.getByRole('textbox', { name: 'Usuario' }).click();
  await page.keyboard.type('gestor');
  await page.getByRole('textbox', { name: 'Contraseña' }).click();
  await page.keyboard.type(MACRO_SITE_PASSWORD);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Hola, gestor' }).waitFor();
  await page.getByRole('link', { name: 'Inicio' }).click();
  await page.getByRole('link', { name: 'Alta de trabajador' }).click();
  await page.getByRole('textbox', { name: 'NIF' }).click();
  await page.keyboard.type('12345678Z');
  await page.getByRole('textbox', { name: 'Nombre' }).click();
  await page.keyboard.type('Ana');
  await page.getByLabel('Contrato').selectOption('401');
  await page.getByRole('checkbox', { name: 'Jornada completa' }).uncheck();
  await page.getByRole('button', { name: 'Registrar' }).click();
  await page.getByText('Alta registrada nº').waitFor();
  await page.getByRole('link', { name: 'Inicio' }).click();
  await page.getByRole('link', { name: 'Subir un fichero' }).click();
  await page.getByLabel('Fichero').setInputFiles({ name: 'nominas.txt', mimeType: 'text/plain', buffer: Buffer.from('hola') });
  await page.getByRole('button', { name: 'Enviar' }).click();
  await page.getByText('Fichero recibido').waitFor();
  await page.getByRole('link', { name: 'Inicio' }).click();
  await page.getByRole('link', { name: 'Descargas' }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Descargar informe' }).click();
  await download;
}


/**
 * The recording the replay figures are about (the reliability test, npm run bench): recorded live on the
 * test site through the recorder, a login with a password (sealed in `secrets`), two links and a download.
 */
export async function recordLoginAndDownload(siteUrl: string, secrets: MacroSecretStore): Promise<MacroDefinition> {
  const port = await freePort();
  const recording = await startRecording({ startUrl: `${siteUrl}/login`, chromiumPath, env: { AUTOASESOR_RECORDER_HEADLESS: '1', AUTOASESOR_RECORDER_CDP_PORT: String(port) }, secrets });
  try {
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
      // The download's signal turns the last click into a download step; wait for it before stopping.
      for (let waited = 0; recording.steps().at(-1)?.type !== 'download'; waited += 100) {
        if (waited > 10_000) throw new Error('The recording never saw the download');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await user.browser.close().catch(() => undefined);
    }
    return await recording.stop();
  } finally {
    await closeRecording();
  }
}

/** What a replay gave: its result and each output's name and bytes. */
function fingerprint(result: RobotResult): string {
  const files = result.outputs.map((file) => `${file.name}:${createHash('sha256').update(file.data).digest('hex')}`);
  return JSON.stringify({ result: result.result, message: result.message ?? null, usageUnits: result.usageUnits, files });
}

/**
 * Plays `macro` `times` times in `browser`, a fresh context each, `atOnce` at a time: the most common
 * outcome (its fingerprint), how many replays gave it, and a printable report with the odd ones out.
 */
export async function replayMany(
  browser: Browser,
  macro: MacroDefinition,
  secrets: MacroSecretStore,
  times: number,
  atOnce: number,
): Promise<{ common: string; identical: number; report: string }> {
  const started = Date.now();
  const fingerprints: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < times) {
      next += 1;
      const run = browserContext(browser, { inputs: { [MACRO_DEFINITION_INPUT]: macro } });
      try {
        fingerprints.push(fingerprint(await playMacroRun(run.context, secrets)));
      } catch (error) {
        fingerprints.push(`threw: ${String(error)}`);
      } finally {
        await run.close();
      }
    }
  };
  await Promise.all(Array.from({ length: atOnce }, worker));
  const counts = new Map<string, number>();
  for (const print of fingerprints) counts.set(print, (counts.get(print) ?? 0) + 1);
  const [common, identical] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]!;
  const odd = [...counts].filter(([print]) => print !== common).map(([print, count]) => `\n  ${count}× ${print}`);
  const report = `Replay reliability: ${identical}/${times} replays gave identical outputs (${((Date.now() - started) / times).toFixed(0)} ms a replay, ${atOnce} at a time)${odd.join('')}`;
  return { common, identical, report };
}
