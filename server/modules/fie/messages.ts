import { FIE_UPLOAD_MAX_FILE_BYTES, FIE_UPLOAD_MAX_FILES } from '#shared/api/fie.ts';
import { formatBytes } from '#shared/files/size.ts';

/** The FIE module's answers in Spanish (spec §8 FIE messages live in shared/fie/messages.ts). */

export const FIE_NOT_FOUND_MESSAGE = 'El FIE no existe o no es de tu asesoría';
export const FIE_ENTRIES_NOT_FOUND_MESSAGE = 'Alguno de los partes seleccionados no existe o no es de tu asesoría';
export const FIE_UPLOAD_NOT_MULTIPART_MESSAGE = 'Envía los FIE como multipart/form-data en el campo «files»';
export const FIE_UPLOAD_EMPTY_MESSAGE = 'Adjunta al menos un FIE';
export const FIE_UPLOAD_TOO_MANY_MESSAGE = `Sube como máximo ${FIE_UPLOAD_MAX_FILES} archivos a la vez`;

export function fileTooLargeReason(): string {
  return `El archivo ocupa más de ${formatBytes(FIE_UPLOAD_MAX_FILE_BYTES)}, el máximo por archivo`;
}

/** An entry A3 refused without saying why. */
export const A3_REFUSED_MESSAGE = 'A3 no ha aceptado el parte';

/** A FIE whose header is read but that carries no entry (spec §8: the file is counted as not processed). */
export const FIE_NO_ENTRIES_REASON = 'El FIE no tiene partes: no se ha guardado';

export const NOT_A_FIE_REASON = 'No es un FIE: no empieza por la cabecera ETI de un FIE de texto ni es una hoja de cálculo de Excel';

/** A file of no bytes (or only blanks): said as such, not as a file without the ETI header (issue 43, 9). */
export const EMPTY_FILE_REASON = 'El archivo está vacío: no tiene ningún parte';

/**
 * A reason after a colon starts in lower case ('no se puede leer: la hoja…'), unless its first word is
 * an acronym or a code ('FIE5', 'ETI').
 */
export function afterColon(reason: string): string {
  const firstWord = /^\S+/.exec(reason)?.[0] ?? '';
  if (firstWord.length > 1 && firstWord === firstWord.toUpperCase()) return reason;
  return reason.charAt(0).toLocaleLowerCase('es') + reason.slice(1);
}

/** Why a FIE whose header names another version (or whose sheet cannot be read) is not read. */
export function ignoredFieReason(reason: string): string {
  return `El FIE no se puede leer: ${afterColon(reason)}`;
}

/** Issue 43 (8): an anulado parte is never passed to A3. */
export const CANCELED_ENTRIES_MESSAGE = 'Los partes anulados no se pasan a A3: quítalos de la selección';

export function disabledEntriesMessage(types: readonly string[]): string {
  return `Los partes de tipo ${types.join(', ')} no se sincronizan con A3: quítalos de la selección`;
}
