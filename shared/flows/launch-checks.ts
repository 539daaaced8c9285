import { daysUntil } from '../certificates/certificate.ts';
import { formatMadridDate } from '../time/index.ts';
import { detectColumnHeaders } from './columns.ts';
import type { MappedColumn } from './definition.ts';

/**
 * Checks a launch gets before a run is queued, in the launcher and again on the server, worded alike.
 */

/** An expired certificate cannot be launched with: the administration's portals refuse it. */
export function expiredCertificateMessage(name: string, notAfter: string, now: Date): string | null {
  if (daysUntil(notAfter, now) >= 0) return null;
  return `El certificado «${name}» caducó el ${formatMadridDate(new Date(notAfter))}: el portal lo rechazará. Elige uno vigente o renuévalo.`;
}

/**
 * Whether a ColumnMapping input's workbook can be launched (the launcher before queueing, the server
 * at launch): it needs data rows under its headers, and at least one column the robot checks, found
 * by the shared header matcher or named by the user's mapping.
 */

export interface WorkbookFacts {
  sheet: string;
  columns: readonly string[];
  rowCount: number;
}

export const emptyWorkbookMessage = (sheet: string) =>
  `La hoja «${sheet}» no tiene filas de datos: añade al menos una fila debajo de los encabezados.`;

export const noKnownColumnsMessage = (expected: readonly string[]) =>
  `No se reconoce ninguna columna del archivo. El robot espera encabezados como: ${expected.map((label) => `«${label}»`).join(', ')}. Renombra las columnas o usa la plantilla.`;

/** The Spanish reason the workbook cannot be launched, or null when it can. `mapping`: key -> header the user chose. */
export function workbookProblem(
  columns: readonly Pick<MappedColumn, 'key' | 'label' | 'headerHints'>[],
  workbook: WorkbookFacts,
  mapping: Readonly<Record<string, string | null>> = {},
): string | null {
  if (workbook.rowCount === 0) return emptyWorkbookMessage(workbook.sheet);
  if (columns.length === 0) return null;
  const detected = Object.values(detectColumnHeaders(workbook.columns, columns)).some((header) => header !== null);
  const mapped = Object.values(mapping).some((header) => header !== null && workbook.columns.includes(header));
  return detected || mapped ? null : noKnownColumnsMessage(columns.map((column) => column.label));
}
