import { formatFieldValue } from '#shared/documents/form-fields.ts';
import { XlsxWriter } from '#shared/spreadsheet/xlsx-writer.ts';
import { formatMadridDateTime, madridDayKey } from '#shared/time/index.ts';
import type { FormRow } from './store.ts';
import { fieldsOf } from './store.ts';
import { submissionOf, type FormSubmissions, type SubmissionsFilter } from './submissions.ts';

/** Submissions read per query while the workbook is written. */
const EXPORT_PAGE = 500;
const DOCUMENT_STATUS_LABELS = { ready: 'Generado', generating: 'Generándose', failed: 'Error al generar' } as const;

/** 'respuestas-<form title>-2026-12-02.xlsx', safe for a Content-Disposition header. */
export function exportFilename(form: Pick<FormRow, 'title'>, now: Date): string {
  const title = form.title.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60).toLowerCase();
  return `respuestas-${title || 'formulario'}-${madridDayKey(now)}.xlsx`;
}

/**
 * The filtered submissions as an .xlsx (Fecha, each field's label, Firmante, Documento), newest first:
 * read page by page (keyset, newest first) and written row by row with the streaming writer
 * (shared/spreadsheet), so memory holds the compressed workbook, never every submission, and the event
 * loop is let go between pages.
 */
export async function submissionsWorkbook(submissions: FormSubmissions, form: FormRow, filter: SubmissionsFilter): Promise<Buffer> {
  const fields = fieldsOf(form);
  const book = new XlsxWriter();
  const sheet = book.addSheet('Respuestas', [17, ...fields.map(() => 24), 28, 16]);
  sheet.row(['Fecha', ...fields.map((field) => field.label), 'Firmante', 'Documento']);
  for (let cursor: { created_at: string; id: string } | null = null; ; ) {
    const rows = await submissions.rows(form, filter, EXPORT_PAGE, { cursor });
    for (const row of rows) {
      const submission = submissionOf(row);
      sheet.row([
        formatMadridDateTime(new Date(submission.createdAt)),
        ...fields.map((field) => formatFieldValue(field, submission.values[field.key])),
        submission.signerName ?? '',
        submission.documentStatus ? DOCUMENT_STATUS_LABELS[submission.documentStatus] : '',
      ]);
    }
    // Writing and deflating a page takes tens of milliseconds: other requests go between pages.
    await new Promise((resolve) => setImmediate(resolve));
    const last = rows.at(-1);
    if (!last || rows.length < EXPORT_PAGE) break;
    cursor = { created_at: last.created_at, id: last.id };
  }
  sheet.end();
  const bytes = book.finish();
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
