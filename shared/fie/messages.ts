import { formatDayMonthYear } from './dates.ts';

/** FIE messages of spec §8, as functions of the counts they depend on. */

/** How long the processing toast stays (spec §9). */
export const FIE_PROCESSING_TOAST_MS = 5000;

export function processedMessage(processed: number): string {
  return processed === 1 ? 'Se ha procesado un FIE.' : `Se han procesado ${processed} FIEs.`;
}

/** `failed` files out of `total` uploaded could not be processed. */
export function failedMessage(failed: number, total: number): string {
  if (total === 1) return 'Este archivo no se ha podido procesar.';
  if (failed === total) return 'No se ha procesado ningún archivo.';
  return failed === 1 ? 'Un archivo no se ha podido procesar.' : `No se han procesado ${failed} archivos.`;
}

/** `alreadyAdded` files out of `total` uploaded had been saved before. */
export function alreadyAddedMessage(alreadyAdded: number, total: number): string {
  if (total === 1) return 'Este archivo ya se ha añadido anteriormente.';
  if (alreadyAdded === total) return 'Estos archivos ya se han añadido anteriormente.';
  return alreadyAdded === 1 ? 'Un archivo se ha añadido anteriormente.' : `Se han añadido ${alreadyAdded} archivos previamente.`;
}

export interface FieProcessingOutcome {
  processed: number;
  failed: number;
  alreadyAdded: number;
}

export interface FieProcessingToast {
  /** An error toast when nothing succeeded. */
  kind: 'success' | 'error';
  durationMs: number;
  lines: string[];
}

/** The toast shown after processing uploaded FIE files: one line per outcome that happened. */
export function processingToast({ processed, failed, alreadyAdded }: FieProcessingOutcome): FieProcessingToast {
  const total = processed + failed + alreadyAdded;
  const lines: string[] = [];
  if (processed > 0) lines.push(processedMessage(processed));
  if (failed > 0) lines.push(failedMessage(failed, total));
  if (alreadyAdded > 0) lines.push(alreadyAddedMessage(alreadyAdded, total));
  return { kind: processed > 0 ? 'success' : 'error', durationMs: FIE_PROCESSING_TOAST_MS, lines };
}

export const SILTRA_NO_FIE_TITLE = 'No hemos encontrado ningún FIE en SILTRA';

/** The detail of the SILTRA no-results toast, for a day or a range of ISO dates (yyyy-mm-dd). */
export function siltraNoResultsMessage(fromIso: string, toIso: string = fromIso): string {
  const from = formatDayMonthYear(fromIso);
  const to = formatDayMonthYear(toIso);
  return from === to ? `Sin resultados en el dia ${from}` : `Sin resultados entre el ${from} y el ${to}`;
}

export const DELETE_FIE_CONFIRM = {
  title: 'Eliminar FIE',
  text: 'El FIE se eliminará y no se podrá recuperar. Los datos ya sincronizados en A3 no se verán afectados.',
} as const;

/** Log lines written when decoding fails. */
export const FIE_DECODE_FROM_DB_ERROR = 'Error al decodificar FIE desde BBDD';

export function fieProcessingError(source: 'text' | 'spreadsheet'): string {
  return `Error al procesar un FIE [${source === 'text' ? 'texto' : 'excel'}]`;
}
