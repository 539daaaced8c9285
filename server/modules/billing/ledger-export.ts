import type { Writable } from 'node:stream';
import type { Kysely } from 'kysely';
import { excelDay } from '#shared/spreadsheet/sheet-xml.ts';
import { XlsxWriter } from '#shared/spreadsheet/xlsx-writer.ts';
import type { ByteSink } from '#shared/spreadsheet/zip-builder.ts';
import { formatMadridTime, madridDayKey, toMadridParts } from '#shared/time/index.ts';
import type { Database } from '../../db/schema.ts';
import { ledgerPage, ledgerTotals, type LedgerPeriod } from './ledger.ts';

export const EXPORT_HEADERS = ['Fecha', 'Hora', 'Tipo', 'Concepto', 'Usuario', 'Email', 'Unidades', 'Unidad', 'Slans', 'Por encima del plan', 'Importe (€)', 'Ejecución'] as const;
const EXPORT_WIDTHS = [12, 7, 8, 48, 24, 30, 10, 10, 10, 18, 12, 38];
/** Fecha is a date cell (dd/mm/yyyy: sorted and filtered as a date), Importe a number in euros. */
const EXPORT_KINDS = ['date', undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, 'euros'] as const;
/** Entries read per query while the workbook is written. */
const EXPORT_PAGE = 500;

/** 'consumo-2026-11-01-2026-12-01.xlsx', on the Madrid calendar. */
export function exportFilename(period: LedgerPeriod): string {
  return `consumo-${madridDayKey(new Date(period.from))}-${madridDayKey(new Date(period.to))}.xlsx`;
}

/** The Madrid day of an instant as an Excel serial day (a date cell). */
function madridExcelDay(instant: Date): number {
  const { year, month, day } = toMadridParts(instant);
  return excelDay(year, month, day);
}

/** '1 ejecución', '2 ejecuciones'. */
export function runsLabel(runs: number): string {
  return runs === 1 ? '1 ejecución' : `${new Intl.NumberFormat('es-ES').format(runs)} ejecuciones`;
}

/**
 * The whole period's ledger as an .xlsx, streamed to `sink` (the HTTP reply, ledger-routes.ts): read page
 * by page and written row by row, its bytes handed on as they are deflated (waiting for the sink between
 * pages), so memory holds a page and a few chunks, never every entry nor the workbook; then a totals row.
 */
export async function writeLedgerWorkbook(db: Kysely<Database>, groupId: string, period: LedgerPeriod, sink: ByteSink): Promise<void> {
  const book = new XlsxWriter(sink);
  await writeLedger(db, groupId, period, book);
  await book.end();
}

/** The same workbook built in memory and given whole (tests, small periods). */
export async function ledgerWorkbook(db: Kysely<Database>, groupId: string, period: LedgerPeriod): Promise<Buffer> {
  const book = new XlsxWriter();
  await writeLedger(db, groupId, period, book);
  const bytes = book.finish();
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

async function writeLedger(db: Kysely<Database>, groupId: string, period: LedgerPeriod, book: XlsxWriter): Promise<void> {
  const sheet = book.addSheet('Consumo', EXPORT_WIDTHS, EXPORT_KINDS);
  sheet.row(EXPORT_HEADERS);
  let cursor: string | undefined;
  do {
    const page = await ledgerPage(db, groupId, period, cursor, EXPORT_PAGE);
    for (const entry of page.items) {
      const at = new Date(entry.at);
      sheet.row([
        madridExcelDay(at),
        formatMadridTime(at),
        entry.kind === 'charge' ? 'Cargo' : 'Abono',
        entry.kind === 'charge' ? entry.robot : entry.description,
        entry.user?.name ?? '',
        entry.user?.email ?? '',
        entry.units,
        entry.unitName ?? '',
        entry.slans,
        entry.extraSlans,
        // Only a line that bills money has an amount (its extra slans at its report's € per slan); none is made up.
        entry.extraPrice ?? null,
        entry.runId ?? '',
      ]);
    }
    if (book.backlogged) await book.flushed();
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  const totals = await ledgerTotals(db, groupId, period);
  sheet.row(['Total', '', '', runsLabel(totals.runs), '', '', null, '', totals.credited - totals.charged, totals.extraSlans, totals.extraPrice, '']);
  sheet.end();
}

/** The export closed before its end (the client went away): it stops reading the ledger. */
export class ExportAbandoned extends Error {}

/**
 * A Node stream as the workbook's sink: a write waits for 'drain' when the stream's buffer is full (its
 * backpressure), and fails with ExportAbandoned once the stream is destroyed; close ends the stream.
 */
export function writableSink(stream: Writable): ByteSink {
  const gone = () => new ExportAbandoned('La descarga se ha interrumpido');
  return {
    async write(chunk) {
      if (stream.destroyed) throw gone();
      if (stream.write(chunk)) return;
      await new Promise<void>((resolve, reject) => {
        const drained = () => {
          stream.off('close', closed);
          resolve();
        };
        const closed = () => {
          stream.off('drain', drained);
          reject(gone());
        };
        stream.once('drain', drained);
        stream.once('close', closed);
      });
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        stream.once('error', reject);
        stream.end(() => resolve());
      }),
  };
}
