import type { Writable } from 'node:stream';
import type { Kysely } from 'kysely';
import { XlsxWriter } from '#shared/spreadsheet/xlsx-writer.ts';
import type { ByteSink } from '#shared/spreadsheet/zip-builder.ts';
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
    if (book.backlogged) await book.flushed();
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  const totals = await ledgerTotals(db, groupId, period);
  sheet.row(['Total', '', `${totals.runs} ejecuciones`, '', '', null, '', totals.credited - totals.charged, totals.extraSlans, '']);
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
