import type { A3AltaRow } from '#shared/api/altas.ts';
import { altasWorkbook } from '#shared/a3/altas-sheet.ts';
import { dropImportAndAwaitAnswer, importFileName, type A3ImportOptions } from './import.ts';

/**
 * The altas' A3 import (research external-systems §4, '202 – MA – Alta sucesiva'): one workbook of
 * altas into A3's import folder, A3's answer per row, like the IT import (import.ts) whose drop-and-wait
 * it shares. The `MA_` prefix tells the importer which import it is.
 */
export const ALTAS_IMPORT_PREFIX = 'MA_';
export const NO_ALTA_ANSWER = 'A3 no ha dicho nada de esta alta en su respuesta.';
export const ALTA_REFUSED_WITHOUT_REASON = 'A3 ha rechazado esta alta sin decir por qué.';

export interface A3AltaImportResult {
  submissionId: string;
  state: 'synced' | 'error';
  error: string | null;
}

/** Writes the altas' workbook, waits for A3's answer and returns what it said of each, in the rows' order. */
export async function importAltasIntoA3(rows: readonly A3AltaRow[], options: A3ImportOptions): Promise<{ importFile: string; results: A3AltaImportResult[] }> {
  const { importFile, answers } = await dropImportAndAwaitAnswer(altasWorkbook(rows), importFileName(options.now(), ALTAS_IMPORT_PREFIX), options);
  return {
    importFile,
    results: rows.map((row): A3AltaImportResult => {
      const answer = answers.get(row.submissionId);
      if (!answer) return { submissionId: row.submissionId, state: 'error', error: NO_ALTA_ANSWER };
      return answer.accepted
        ? { submissionId: row.submissionId, state: 'synced', error: null }
        : { submissionId: row.submissionId, state: 'error', error: answer.message || ALTA_REFUSED_WITHOUT_REASON };
    }),
  };
}
