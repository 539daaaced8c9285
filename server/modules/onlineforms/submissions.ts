import { sql, type Kysely, type Selectable } from 'kysely';
import { z } from 'zod/mini';
import { SUBMISSIONS_PAGE_SIZE, type FormSubmission, type SubmissionsPage } from '#shared/api/onlineforms.ts';
import type { OnlineFormValues } from '#shared/documents/form-fields.ts';
import { fromMadridParts } from '#shared/time/index.ts';
import type { Database } from '../../db/schema.ts';
import type { DocSubmissionsTable } from '../../db/schema-documents.ts';
import type { ActiveSession } from '../auth/sessions.ts';
import type { FileStorage } from '../storage/service.ts';
import { accessTo, canEdit } from '../share/access.ts';
import { HttpError } from '../../http/errors.ts';
import { NO_SIGNATURE_MESSAGE, submissionNotFound, VIEW_ONLY_MESSAGE } from './messages.ts';
import { formFor, type FormRow } from './store.ts';
import type { SubmissionFiles } from './submission-files.ts';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const dayString = (message: string) => z.string().check(z.regex(DAY, message));

/** ?q=&from=&to=&page= of the submissions list (from/to are Madrid days, both included). */
export const submissionsQuerySchema = z.object({
  q: z.optional(z.string().check(z.maxLength(200))),
  from: z.optional(dayString('Escribe la fecha como aaaa-mm-dd')),
  to: z.optional(dayString('Escribe la fecha como aaaa-mm-dd')),
  page: z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(100_000))),
});
export type SubmissionsQuery = z.infer<typeof submissionsQuerySchema>;
export type SubmissionsFilter = Omit<SubmissionsQuery, 'page'>;

type SubmissionRow = Selectable<DocSubmissionsTable> & { document_status: 'generating' | 'ready' | 'failed' | null };

/** The first instant of a Madrid day 'yyyy-mm-dd', `plusDays` later. */
function madridDayStart(day: string, plusDays = 0): string {
  const [, year, month, date] = DAY.exec(day) ?? [];
  return fromMadridParts({ year: Number(year), month: Number(month), day: Number(date) + plusDays }).toISOString();
}

/** A LIKE pattern that matches `text` anywhere, its own % _ and \ taken literally (ESCAPE '\'). */
export const containsPattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

export function submissionOf(row: SubmissionRow): FormSubmission {
  return {
    id: row.id,
    formId: row.form_id,
    values: JSON.parse(row.values) as OnlineFormValues,
    signerName: row.signer_name,
    hasSignature: row.signature_key !== null,
    documentId: row.document_id,
    documentStatus: row.document_status,
    createdAt: row.created_at,
  };
}

/**
 * The advisor's side of a form's submissions: read by whoever may read the form, removed by whoever
 * may change it. The list is one indexed query for the page and one count (doc_submissions_form_idx).
 */
export class FormSubmissions {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly storage: FileStorage,
    private readonly files: SubmissionFiles,
  ) {}

  /** The form's submissions filtered, newest first, with their document's status joined. */
  filtered(form: Pick<FormRow, 'id' | 'group_id'>, filter: SubmissionsFilter) {
    // The form is the caller's firm's (formFor): its id alone picks its rows through doc_submissions_form_idx.
    let query = this.db.selectFrom('doc_submissions as s').where('s.form_id', '=', form.id);
    const q = filter.q?.trim();
    if (q) query = query.where(sql<boolean>`s.search_text like ${containsPattern(q)} escape '\\'`);
    if (filter.from) query = query.where('s.created_at', '>=', madridDayStart(filter.from));
    if (filter.to) query = query.where('s.created_at', '<', madridDayStart(filter.to, 1));
    return query;
  }

  /** Rows of the filtered list, newest first: `limit` from `offset`, or after `cursor` (the last row read; the export's way). */
  rows(form: Pick<FormRow, 'id' | 'group_id'>, filter: SubmissionsFilter, limit: number, at: { offset: number } | { cursor: { created_at: string; id: string } | null }): Promise<SubmissionRow[]> {
    let query = this.filtered(form, filter)
      .leftJoin('doc_documents as d', 'd.id', 's.document_id')
      .selectAll('s')
      .select('d.status as document_status')
      .orderBy('s.created_at', 'desc')
      .orderBy('s.id', 'desc')
      .limit(limit);
    if ('offset' in at) query = query.offset(at.offset);
    else if (at.cursor) {
      const { created_at, id } = at.cursor;
      query = query.where((eb) => eb.or([eb('s.created_at', '<', created_at), eb.and([eb('s.created_at', '=', created_at), eb('s.id', '<', id)])]));
    }
    return query.execute();
  }

  async page(session: ActiveSession, formId: string, query: SubmissionsQuery): Promise<SubmissionsPage> {
    const { form } = await formFor(this.db, session, formId, 'read');
    const page = query.page ?? 1;
    const [rows, total] = await Promise.all([
      this.rows(form, query, SUBMISSIONS_PAGE_SIZE, { offset: (page - 1) * SUBMISSIONS_PAGE_SIZE }),
      this.filtered(form, query).select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow(),
    ]);
    return { items: rows.map(submissionOf), total: Number(total.count), page, pageSize: SUBMISSIONS_PAGE_SIZE };
  }

  /** The submission of a form of the caller's firm they may read (or change); else 404. */
  private async submissionFor(session: ActiveSession, id: string, need: 'read' | 'edit'): Promise<SubmissionRow> {
    const row = await this.db
      .selectFrom('doc_submissions as s')
      .innerJoin('doc_forms as f', 'f.id', 's.form_id')
      .leftJoin('doc_documents as d', 'd.id', 's.document_id')
      .selectAll('s')
      .select(['d.status as document_status', 'f.owner_user_id as form_owner'])
      .where('s.id', '=', id)
      .where('s.group_id', '=', session.groupId)
      .executeTakeFirst();
    if (!row) throw submissionNotFound();
    const access = await accessTo(this.db, 'form', { id: row.form_id, ownerUserId: row.form_owner }, session.userId);
    if (access === null) throw submissionNotFound();
    if (need === 'edit' && !canEdit(access)) throw new HttpError(403, 'FORBIDDEN', VIEW_ONLY_MESSAGE);
    return row;
  }

  async get(session: ActiveSession, id: string): Promise<FormSubmission> {
    return submissionOf(await this.submissionFor(session, id, 'read'));
  }

  async remove(session: ActiveSession, id: string): Promise<void> {
    await this.files.removeSubmission(await this.submissionFor(session, id, 'edit'));
  }

  /** The drawn signature's PNG and a file name for it. */
  async signature(session: ActiveSession, id: string): Promise<{ bytes: Buffer; filename: string }> {
    const row = await this.submissionFor(session, id, 'read');
    if (!row.signature_key) throw new HttpError(404, 'NOT_FOUND', NO_SIGNATURE_MESSAGE);
    const bytes = await this.storage.read(row.signature_key).catch(() => {
      throw new HttpError(404, 'NOT_FOUND', NO_SIGNATURE_MESSAGE);
    });
    return { bytes, filename: `firma-${row.created_at.slice(0, 10)}-${row.id.slice(0, 8)}.png` };
  }
}
