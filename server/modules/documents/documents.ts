import { sql, type Kysely } from 'kysely';
import { DOCUMENT_NOT_READY_MESSAGE, DOCUMENTS_PAGE_SIZE, type DocumentFormat, type DocumentsPage, type GenerateBody, type GeneratedDocument } from '#shared/api/documents.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { FileStorage } from '../storage/service.ts';
import type { DocumentGenerator } from './generator.ts';
import { containsPattern, DOCUMENT_FAILED_MESSAGE, documentNotFound, type DocumentsQuery } from './messages.ts';
import type { Caller, DocumentTemplates } from './templates.ts';

export const DOCUMENT_TYPES: Record<DocumentFormat, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

const COLUMNS = [
  'd.id', 'd.name', 'd.company', 'd.template_id', 't.name as template_name', 'd.submission_id', 'd.status', 'd.error', 'd.pdf_size', 'd.docx_size', 'd.created_at',
] as const;

interface DocumentRow {
  id: string;
  name: string;
  company: string | null;
  template_id: string | null;
  template_name: string | null;
  submission_id: string | null;
  status: GeneratedDocument['status'];
  error: string | null;
  pdf_size: number | null;
  docx_size: number | null;
  created_at: string;
}

const sizeOf = (size: number | string | null) => (size === null ? null : Number(size));

function documentOf(row: DocumentRow): GeneratedDocument {
  return {
    id: row.id,
    name: row.name,
    company: row.company,
    templateId: row.template_id,
    templateName: row.template_name,
    submissionId: row.submission_id,
    status: row.status,
    error: row.error,
    pdfSize: sizeOf(row.pdf_size),
    docxSize: sizeOf(row.docx_size),
    createdAt: row.created_at,
  };
}

/**
 * Generated documents (issue 40 §1): the firm's records, seen by every member. Generating takes a
 * template the caller may see; the files are made by the DocumentGenerator in the background.
 */
export class GeneratedDocuments {
  constructor(private readonly deps: { db: Kysely<Database>; storage: FileStorage; templates: DocumentTemplates; generator: DocumentGenerator }) {}

  private rows(groupId: string) {
    return this.deps.db.selectFrom('doc_documents as d').leftJoin('doc_templates as t', 't.id', 'd.template_id').where('d.group_id', '=', groupId);
  }

  async list(caller: Caller, query: DocumentsQuery): Promise<DocumentsPage> {
    let filtered = this.rows(caller.groupId);
    if (query.templateId) filtered = filtered.where('d.template_id', '=', query.templateId);
    if (query.q) {
      const pattern = containsPattern(query.q);
      filtered = filtered.where(sql<boolean>`(lower(d.name) like ${pattern} escape '\\' or lower(coalesce(d.company, '')) like ${pattern} escape '\\')`);
    }
    const [rows, count] = await Promise.all([
      filtered.select(COLUMNS).orderBy('d.created_at', 'desc').orderBy('d.id', 'desc').limit(DOCUMENTS_PAGE_SIZE).offset((query.page - 1) * DOCUMENTS_PAGE_SIZE).execute(),
      filtered.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirst(),
    ]);
    return { items: rows.map(documentOf), total: Number(count?.total ?? 0), page: query.page, pageSize: DOCUMENTS_PAGE_SIZE };
  }

  async get(caller: Caller, id: string): Promise<GeneratedDocument> {
    const row = await this.rows(caller.groupId).select(COLUMNS).where('d.id', '=', id).executeTakeFirst();
    if (!row) throw documentNotFound();
    return documentOf(row);
  }

  /** A document from one of the templates the caller may see, filled with `values`: answered 'generating'. */
  async generate(caller: Caller, body: GenerateBody): Promise<GeneratedDocument> {
    const template = await this.deps.templates.contentFor(caller, body.templateId);
    const { documentId } = await this.deps.generator.generate({
      groupId: caller.groupId,
      ownerUserId: caller.userId,
      templateId: body.templateId,
      submissionId: null,
      name: body.name || template.name,
      company: body.company || null,
      content: template.content,
      values: body.values,
    });
    return this.get(caller, documentId);
  }

  /** The row and its files (a render still under way drops its files when it ends: generator.ts). */
  async delete(caller: Caller, id: string): Promise<void> {
    const row = await this.deps.db.selectFrom('doc_documents').select(['pdf_key', 'docx_key']).where('id', '=', id).where('group_id', '=', caller.groupId).executeTakeFirst();
    if (!row) throw documentNotFound();
    await this.deps.db.deleteFrom('doc_documents').where('id', '=', id).where('group_id', '=', caller.groupId).execute();
    await this.deps.storage.remove([row.pdf_key, row.docx_key].filter((key): key is string => key !== null));
  }

  /** One of its files, once it is ready (409 while it is being made). */
  async file(caller: Caller, id: string, format: DocumentFormat): Promise<{ name: string; type: string; data: Buffer }> {
    const row = await this.deps.db.selectFrom('doc_documents').select(['name', 'status', 'pdf_key', 'docx_key']).where('id', '=', id).where('group_id', '=', caller.groupId).executeTakeFirst();
    if (!row) throw documentNotFound();
    if (row.status === 'generating') throw new HttpError(409, 'DOCUMENT_NOT_READY', DOCUMENT_NOT_READY_MESSAGE);
    if (row.status === 'failed') throw new HttpError(409, 'DOCUMENT_FAILED', DOCUMENT_FAILED_MESSAGE);
    const key = format === 'pdf' ? row.pdf_key : row.docx_key;
    const data = row.status === 'ready' && key ? await this.deps.storage.read(key).catch(() => null) : null;
    if (!data) throw documentNotFound();
    return { name: `${row.name}.${format}`, type: DOCUMENT_TYPES[format], data };
  }
}
