/**
 * Test-only helpers of the macro tests: a real Chromium (skipped when absent outside CI, like
 * standins/portal/chromium.test.ts), a DesktopRobotContext over one browser with a fresh context per
 * run, and macros written short.
 */
import { existsSync } from 'node:fs';
import type { Browser, BrowserContext } from 'playwright-core';
import * as XLSX from 'xlsx';
import type { RobotFile } from '#shared/flows/robot.ts';
import { MACRO_SCHEMA_VERSION, type MacroDefinition } from '#shared/macros/definition.ts';
import type { DesktopRobotContext } from '../../resources/flows/_lib/desktop.ts';

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
