import { sql, type Kysely, type RawBuilder } from 'kysely';
import {
  DOCUMENT_MANAGER_PAGE_SIZE,
  type ManagedDocument, type ManagedDocumentKind, type ManagedDocumentsPage, type ManagedDocumentsQuery,
} from '#shared/api/documentmanager.ts';
import { altasPaths } from '#shared/api/altas.ts';
import { documentsPaths } from '#shared/api/documents.ts';
import { flowsPaths } from '#shared/api/flows.ts';
import { notificationsPaths } from '#shared/api/notifications.ts';
import type { Database } from '../../db/schema.ts';
import { expiresAt, retentionCutoff } from '../retention/retention.ts';

/** One row of the union: every branch selects these columns, in this order. */
interface ManagedRow {
  id: string;
  kind: ManagedDocumentKind;
  name: string;
  company: string | null;
  source: string;
  size: number | string | null;
  created_at: string;
  /** The run, altas submission or DEHÚ notification the file belongs to (its download route names it). */
  parent_id: string | null;
  /** 1 when the file is there to download. */
  downloadable: number | string;
}

/** LIKE's wildcards and the escape character itself, taken literally (ESCAPE '\'). */
export function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** One branch per table; 'generated' reads doc_documents for signed submissions too. */
const BRANCHES = ['generated', 'robot-output', 'alta-attachment', 'fie', 'dehu'] as const;

const FIE_SOURCE = sql<string>`case f.source when 'siltra' then 'FIE de SILTRA' when 'fier' then 'FIE de FIE-R' when 'api' then 'FIE de la API' else 'FIE subido' end`;

/**
 * Every document a firm holds (issue 40 §4), read-only, from each module's own table in one UNION ALL:
 * generated documents and signed form submissions (doc_documents), robots' outputs (stored_files),
 * altas attachments (altas_files), FIE files (fie_documents) and DEHÚ documents (dehu_documents). Each
 * branch starts from its table's (group_id, created_at) index; a kind filter leaves the other branches
 * out of the query altogether.
 */
export class DocumentManager {
  constructor(private readonly deps: { db: Kysely<Database>; now: () => Date; fileRetentionDays: number }) {}

  /** The branch that reads `kind`; generated documents and signed submissions share doc_documents' (one scan for both). */
  private branch(kind: Exclude<ManagedDocumentKind, 'submission'>, groupId: string, only?: 'generated' | 'submission'): RawBuilder<ManagedRow> {
    switch (kind) {
      case 'generated': {
        const which = only === 'generated' ? sql` and d.submission_id is null` : only === 'submission' ? sql` and d.submission_id is not null` : sql``;
        return sql<ManagedRow>`select d.id as id, case when d.submission_id is null then 'generated' else 'submission' end as kind, d.name as name, d.company as company,
          coalesce(fm.title, t.name, 'Documento') as source, d.pdf_size as size, d.created_at as created_at, cast(null as text) as parent_id,
          case when d.pdf_key is null then 0 else 1 end as downloadable
          from doc_documents d left join doc_templates t on t.id = d.template_id
            left join doc_submissions s on s.id = d.submission_id left join doc_forms fm on fm.id = s.form_id
          where d.group_id = ${groupId} and d.status = 'ready'${which}`;
      }
      case 'robot-output':
        // Files past their retention are gone (or about to be): not offered.
        return sql<ManagedRow>`select sf.id as id, 'robot-output' as kind, sf.name as name, cast(null as text) as company, coalesce(r.flow_name, 'Robot') as source,
          sf.size as size, sf.created_at as created_at, sf.run_id as parent_id, 1 as downloadable
          from stored_files sf left join flow_runs r on r.id = sf.run_id
          where sf.group_id = ${groupId} and sf.kind = 'output' and sf.run_id is not null and sf.expired_at is null
            and sf.created_at > ${retentionCutoff(this.deps.now(), this.deps.fileRetentionDays)}`;
      case 'alta-attachment':
        return sql<ManagedRow>`select af.id as id, 'alta-attachment' as kind, af.name as name, c.name as company, s.title as source,
          af.size as size, af.created_at as created_at, af.submission_id as parent_id, 1 as downloadable
          from altas_files af inner join altas_submissions s on s.id = af.submission_id and s.group_id = af.group_id inner join altas_companies c on c.id = s.company_id
          where af.group_id = ${groupId} and af.submission_id is not null and s.removed = 0`;
      case 'fie':
        return sql<ManagedRow>`select f.id as id, 'fie' as kind, coalesce(f.file_name, 'FIE ' || f.date) as name, cast(null as text) as company, ${FIE_SOURCE} as source,
          cast(null as integer) as size, f.created_at as created_at, cast(null as text) as parent_id, 0 as downloadable
          from fie_documents f
          where f.group_id = ${groupId} and f.importing = 0`;
      case 'dehu':
        return sql<ManagedRow>`select dd.id as id, 'dehu' as kind, dd.name as name, n.titular_name as company, n.concepto as source,
          dd.size as size, dd.created_at as created_at, dd.notification_id as parent_id, 1 as downloadable
          from dehu_documents dd inner join dehu_notifications n on n.id = dd.notification_id and n.group_id = dd.group_id
          where dd.group_id = ${groupId}`;
    }
  }

  /** The branches of the kinds asked for (a kind filter leaves the other tables out of the query). */
  private branches(groupId: string, kind: ManagedDocumentKind | undefined): RawBuilder<ManagedRow>[] {
    if (kind === 'generated' || kind === 'submission') return [this.branch('generated', groupId, kind)];
    return (kind ? [kind] : BRANCHES).map((one) => this.branch(one, groupId));
  }

  /** The list's filters on a branch's columns (alias b). */
  private filters(query: ManagedDocumentsQuery): RawBuilder<unknown> {
    const conditions: RawBuilder<unknown>[] = [sql`1 = 1`];
    // PostgreSQL refuses NUL in text; no stored name or company has one.
    const company = query.company?.replaceAll('\u0000', '').trim();
    if (company) conditions.push(sql`b.company = ${company}`);
    const q = query.q?.replaceAll('\u0000', '').trim();
    if (q) {
      const pattern = likePattern(q);
      conditions.push(sql`(lower(b.name) like ${pattern} escape '\\' or lower(coalesce(b.company, '')) like ${pattern} escape '\\')`);
    }
    return sql.join(conditions, sql` and `);
  }

  /**
   * One page of the firm's documents, newest first, with how many match. Each branch hands over only its
   * own newest `page × size` matches (read down its (group_id, created_at) index), so a page costs the
   * same whatever the firm holds; the total is each branch's count, added up.
   */
  async list(groupId: string, query: ManagedDocumentsQuery): Promise<ManagedDocumentsPage> {
    const { db } = this.deps;
    const page = query.page ?? 1;
    const where = this.filters(query);
    const branches = this.branches(groupId, query.kind);
    const newest = page * DOCUMENT_MANAGER_PAGE_SIZE;
    const order = sql`created_at desc, kind, id`;
    const tops = branches.map((branch) => sql`select * from (select * from (${branch}) b where ${where} order by ${order} limit ${newest}) t`);
    const counts = branches.map((branch) => sql`select count(*) as total from (${branch}) b where ${where}`);
    const [rows, totals] = await Promise.all([
      sql<ManagedRow>`select * from (${sql.join(tops, sql` union all `)}) u order by ${order} limit ${DOCUMENT_MANAGER_PAGE_SIZE} offset ${newest - DOCUMENT_MANAGER_PAGE_SIZE}`.execute(db),
      sql<{ total: number | string }>`${sql.join(counts, sql` union all `)}`.execute(db),
    ]);
    const total = totals.rows.reduce((sum, row) => sum + Number(row.total), 0);
    return { items: rows.rows.map((row) => this.toDocument(row)), total, page, pageSize: DOCUMENT_MANAGER_PAGE_SIZE };
  }

  /** The companies the firm's documents are about, with how many each, for the filter. */
  async companies(groupId: string): Promise<Array<{ company: string; documents: number }>> {
    const union = sql.join(this.branches(groupId, undefined), sql` union all `);
    const result = await sql<{ company: string; documents: number | string }>`select u.company as company, count(*) as documents from (${union}) u
      where u.company is not null and u.company <> '' group by u.company order by u.company`.execute(this.deps.db);
    return result.rows.map((row) => ({ company: row.company, documents: Number(row.documents) }));
  }

  private toDocument(row: ManagedRow): ManagedDocument {
    return {
      key: `${row.kind}:${row.id}`,
      kind: row.kind,
      name: row.name,
      company: row.company,
      source: row.source,
      size: row.size === null ? null : Number(row.size),
      createdAt: row.created_at,
      expiresAt: row.kind === 'robot-output' ? expiresAt(row.created_at, this.deps.fileRetentionDays) : null,
      downloadPath: Number(row.downloadable) === 1 ? downloadPath(row) : null,
    };
  }
}

/** The module's own download route for a row (its path in shared/api), or null when it has none. */
function downloadPath(row: ManagedRow): string | null {
  const id = encodeURIComponent(row.id);
  const parent = row.parent_id === null ? null : encodeURIComponent(row.parent_id);
  switch (row.kind) {
    case 'generated':
    case 'submission':
      return documentsPaths.documentFile.replace(':id', id).replace(':format', 'pdf');
    case 'robot-output':
      return parent && flowsPaths.outputFile.replace(':id', parent).replace(':name', encodeURIComponent(row.name));
    case 'alta-attachment':
      return parent && altasPaths.submissionFile.replace(':id', parent).replace(':fileId', id);
    case 'dehu':
      return parent && notificationsPaths.document.replace(':id', parent).replace(':documentId', id);
    case 'fie':
      return null;
  }
}
