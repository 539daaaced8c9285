import type { KeyValueRow } from '../forms/key-value.ts';
import { isValidCcc } from '../validation/identifiers.ts';

/**
 * A company's list of cuentas de cotización: each row a name (the work centre) and a CCC. What is
 * wrong with a row is said on that row, naming what is missing (issue 44), on the company modal and in
 * the server's 400 ('cccList.<row>').
 */

export const CCC_LABEL_MISSING_MESSAGE = 'Falta el nombre de esta cuenta (por ejemplo, el centro de trabajo)';
export const CCC_KEY_MISSING_MESSAGE = 'Falta el número de CCC de esta cuenta';
export const CCC_ROW_EMPTY_MESSAGE = 'Escribe el nombre y el CCC, o quita esta fila';
export const CCC_INVALID_MESSAGE = 'Introduce un CCC válido';

export interface CccRowProblem {
  message: string;
  /** The input at fault: the name, the CCC or both. */
  input: 'label' | 'key' | 'both';
}

/**
 * One problem (or null) per row. A list holding a single blank row is the cleared list (no CCCs), not
 * an error; a blank row among others is.
 */
export function cccRowProblems(rows: readonly KeyValueRow[]): (CccRowProblem | null)[] {
  const blank = (row: KeyValueRow) => row.label.trim() === '' && row.key.trim() === '';
  if (rows.length === 1 && rows[0] !== undefined && blank(rows[0])) return [null];
  return rows.map((row) => {
    const label = row.label.trim();
    const key = row.key.trim();
    if (label === '' && key === '') return { message: CCC_ROW_EMPTY_MESSAGE, input: 'both' };
    if (label === '') return { message: CCC_LABEL_MISSING_MESSAGE, input: 'label' };
    if (key === '') return { message: CCC_KEY_MISSING_MESSAGE, input: 'key' };
    return isValidCcc(key) ? null : { message: CCC_INVALID_MESSAGE, input: 'key' };
  });
}
