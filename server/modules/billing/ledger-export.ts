import type { Kysely } from 'kysely';
import { XlsxWriter } from '#shared/spreadsheet/xlsx-writer.ts';
import { formatMadridDateTime, madridDayKey } from '#shared/time/index.ts';
import type { Database } from '../../db/schema.ts';
import { ledgerPage, ledgerTotals, type LedgerPeriod } from './ledger.ts';

export const EXPORT_HEADERS = ['Fecha', 'Tipo', 'Concepto', 'Usuario', 'Email', 'Unidades', 'Unidad', 'Slans', 'Por encima del plan', 'Ejecución'] as const;
/** Entries read per query while the workbook is written. */
const EXPORT_PAGE = 500;

/** 'consumo-2026-11-01-2026-12-01.xlsx', on the Madrid calendar. */
export function exportFilename(period: LedgerPeriod): string {
  return `consumo-${madridDayKey(new Date(period.from))}-${madridDayKey(new Date(period.to))}.xlsx`;
}

/**
 * The whole period's ledger as an .xlsx: read page by page and written row by row with the streaming
 * writer (shared/spreadsheet), so memory holds the compressed workbook, never every entry; then a totals row.
 */
export async function ledgerWorkbook(db: Kysely<Database>, groupId: string, period: LedgerPeriod): Promise<Buffer> {
  const book = new XlsxWriter();
  const sheet = book.addSheet('Consumo', [17, 8, 48, 24, 30, 10, 10, 10, 18, 38]);
  sheet.row(EXPORT_HEADERS);
  let cursor: string | undefined;
  do {
    const page = await ledgerPage(db, groupId, period, cursor, EXPORT_PAGE);
    for (const entry of page.items) {
      sheet.row([
        formatMadridDateTime(new Date(entry.at)),
        entry.kind === 'charge' ? 'Cargo' : 'Abono',
        entry.kind === 'charge' ? entry.robot : entry.description,
        entry.user?.name ?? '',
        entry.user?.email ?? '',
        entry.units,
        entry.unitName ?? '',
        entry.slans,
        entry.extraSlans,
        entry.runId ?? '',
      ]);
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  const totals = await ledgerTotals(db, groupId, period);
  sheet.row(['Total', '', `${totals.runs} ejecuciones`, '', '', null, '', totals.credited - totals.charged, totals.extraSlans, '']);
  sheet.end();
  const bytes = book.finish();
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
