import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { A3SyncRecordWithEntry } from '#shared/bridge/contract.ts';
import { itRowOf, type A3AnswerRow } from './it-rows.ts';

/** The spreadsheet library (~1 MB) is loaded on the first sync, not when the desktop starts. */
const workbooks = () => import('./workbook.ts');

/**
 * The A3 folder import (external-systems §4 stand-in guidance: the import is files dropped in a folder).
 * One workbook per sync, written whole under a temporary name and then renamed, so the importer never
 * reads half a file; its answer is `<name>.respuesta.xlsx` beside it, one row per IT.
 */
export const IMPORT_PREFIX = 'IT_';
export const ANSWER_SUFFIX = '.respuesta.xlsx';
export const PARTIAL_SUFFIX = '.parcial';

export interface A3ImportOptions {
  /** A3_IMPORT_DIR: the folder the A3 importer watches. */
  folder: string;
  /** How long to wait for the answer before giving up. */
  timeoutMs: number;
  pollMs?: number;
  now: () => Date;
  signal?: AbortSignal;
}

export interface A3EntryResult {
  entryId: string;
  state: 'synced' | 'error';
  error: string | null;
}

export interface A3ImportOutcome {
  importFile: string;
  results: A3EntryResult[];
}

export const noAnswerMessage = (seconds: number, folder: string) =>
  `A3 no ha contestado a la importación en ${seconds} s: comprueba que el importador de A3 está en marcha y vigila la carpeta «${folder}».`;
export const NO_ROW_ANSWER = 'A3 no ha dicho nada de este parte en su respuesta.';
export const A3_FOLDER_MISSING = (folder: string) =>
  `No se puede escribir en la carpeta de importación de A3 «${folder}»: revisa la carpeta en la configuración.`;

export function importFileName(now: Date, prefix: string = IMPORT_PREFIX): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${prefix}${stamp}_${randomBytes(3).toString('hex')}.xlsx`;
}

/** Writes the import, waits for A3's answer and returns what it said of each entry, in the records' order. */
export async function importIntoA3(records: readonly A3SyncRecordWithEntry[], options: A3ImportOptions): Promise<A3ImportOutcome> {
  const bytes = (await workbooks()).writeItWorkbook(records.map(itRowOf));
  const { importFile, answers } = await dropImportAndAwaitAnswer(bytes, importFileName(options.now()), options);
  return {
    importFile,
    results: records.map((record): A3EntryResult => {
      const answer = answers.get(record.entryId);
      if (!answer) return { entryId: record.entryId, state: 'error', error: NO_ROW_ANSWER };
      return answer.accepted
        ? { entryId: record.entryId, state: 'synced', error: null }
        : { entryId: record.entryId, state: 'error', error: answer.message || 'A3 ha rechazado este parte sin decir por qué.' };
    }),
  };
}

/** A3's answer to one import: its rows by reference, or the reason none came. */
export type A3Answers = { get(reference: string): A3AnswerRow | undefined };

/**
 * Drops an import workbook into A3's folder (whole, then renamed into place) and waits for its answer
 * `<name>.respuesta.xlsx`. Every A3 import (IT, altas) goes through here. When no answer comes in time,
 * every reference reads as refused with noAnswerMessage.
 */
export async function dropImportAndAwaitAnswer(bytes: Uint8Array, name: string, options: Omit<A3ImportOptions, 'now'>): Promise<{ importFile: string; answers: A3Answers }> {
  const pollMs = options.pollMs ?? 250;
  const importFile = join(options.folder, name);
  try {
    await mkdir(options.folder, { recursive: true });
    await writeFile(`${importFile}${PARTIAL_SUFFIX}`, bytes);
    await rename(`${importFile}${PARTIAL_SUFFIX}`, importFile);
  } catch {
    throw new Error(A3_FOLDER_MISSING(options.folder));
  }

  const answerFile = importFile.replace(/\.xlsx$/, ANSWER_SUFFIX);
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (await exists(answerFile)) break;
    if (Date.now() >= deadline) {
      const message = noAnswerMessage(Math.round(options.timeoutMs / 1000), options.folder);
      return { importFile, answers: { get: (reference) => ({ reference, accepted: false, message }) } };
    }
    await sleep(pollMs, undefined, { signal: options.signal });
  }
  return { importFile, answers: new Map((await readAnswer(answerFile)).map((row) => [row.reference, row])) };
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** The stand-in renames its answer into place, but a tool that writes it in place may be caught mid-write: read again. */
async function readAnswer(path: string) {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return (await workbooks()).readAnswerWorkbook(new Uint8Array(await readFile(path)));
    } catch (error) {
      if (attempt >= 3) throw new Error(`No se ha podido leer la respuesta de A3 (${error instanceof Error ? error.message : String(error)}).`);
      await sleep(200);
    }
  }
}
