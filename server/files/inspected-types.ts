/**
 * Which uploads are inspected, apart from the inspection itself (inspection.ts): the API server reads
 * these sets at every upload, and importing them from inspection.ts would load SheetJS (~1 MB) at
 * start, where only the inspection's child process (inspect-child.ts) needs it.
 */

/** Types inspected in a child process (their content is parsed); the rest are only sniffed. */
export const INSPECTED_TYPES: ReadonlySet<string> = new Set(['xlsx', 'xls', 'ods', 'csv', 'txt', 'msj', 'fie']);

/** Types whose inspection has a sheet (columns and rows). */
export const WORKBOOK_TYPES: ReadonlySet<string> = new Set(['xlsx', 'xls', 'ods', 'csv']);
