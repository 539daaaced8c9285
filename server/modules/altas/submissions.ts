import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ALTAS_FLOW_ID, type FieldsValues, type FormField, type ReceivedSummary, type Submission, type SubmissionFile } from '#shared/api/altas.ts';
import { mergeGroupValues, normalizeSubmissionValues, submissionTitle, submissionValueErrors } from '#shared/altas/index.ts';
import type { Database } from '../../db/schema.ts';
import type { FileStorage } from '../storage/service.ts';
import { COMPANY_NOT_FOUND_MESSAGE, fieldErrors, FILE_NOT_FOUND_MESSAGE, FILE_NOT_YOURS_MESSAGE, GROUP_NOT_FOUND_MESSAGE, notFound } from './messages.ts';
import { duplicateAltaError, hasDuplicateAlta } from './duplicates.ts';
import { companyCcc, companyGroups, findCompany, findSubmission, toSubmission, type AltasCaller, type CompanyRow } from './store.ts';
import { parseJson } from '../../db/json-column.ts';

const isFile = (value: unknown): value is SubmissionFile => typeof value === 'object' && value !== null && 'fileId' in value;

/** The file ids a submission's values reference. */
export function referencedFileIds(values: FieldsValues): string[] {
  return Object.values(values).flatMap((value) => (isFile(value) ? [value.fileId] : []));
}

/** The group's advisor values merged under the submission's, or 404 for a key the company lacks. */
export function withGroupValues(company: CompanyRow, groupKey: string | null | undefined, values: FieldsValues): FieldsValues {
  if (groupKey === null || groupKey === undefined) return values;
  const group = companyGroups(company).find((candidate) => candidate.key === groupKey);
  if (!group) throw notFound(GROUP_NOT_FOUND_MESSAGE);
  return mergeGroupValues(group.fieldsValues, values);
}

/** The advisor's side of the submissions (spec §7): list, 'Nueva Alta', corrections, removal, attached files. */
export class AltasSubmissions {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date,
    private readonly storage: FileStorage,
  ) {}

  async list(groupId: string, filters: { flow?: string | undefined; company?: string | undefined }): Promise<Submission[]> {
    let query = this.db
      .selectFrom('altas_submissions as s')
      .innerJoin('altas_companies as c', 'c.id', 's.company_id')
      .selectAll('s')
      .select('c.name as company_name')
      .where('s.group_id', '=', groupId)
      .where('s.removed', '=', 0);
    if (filters.flow !== undefined) query = query.where('s.flow_id', '=', filters.flow);
    if (filters.company !== undefined) query = query.where('s.company_id', '=', filters.company);
    const rows = await query.orderBy('s.created_at', 'desc').orderBy('s.id', 'desc').execute();
    return rows.map(({ company_name, ...row }) => toSubmission(row, company_name));
  }

  /**
   * 'Nueva Alta': the advisor fills every field; the chosen group's values go under the typed ones.
   * The same worker, fecha de alta and CCC as another alta of the firm is refused (409).
   */
  async create(caller: AltasCaller, input: { companyId: string; groupKey?: string | null | undefined; fieldsValues: FieldsValues }, fields: Record<string, FormField>): Promise<Submission> {
    const company = await findCompany(this.db, caller.groupId, input.companyId);
    if (company.removed === 1) throw notFound(COMPANY_NOT_FOUND_MESSAGE);
    // The advisor has no upload of their own: files come from the company's form.
    const foreignFiles = Object.entries(input.fieldsValues).filter(([, value]) => isFile(value));
    if (foreignFiles.length > 0) throw fieldErrors(Object.fromEntries(foreignFiles.map(([key]) => [key, FILE_NOT_YOURS_MESSAGE])));
    const values = withGroupValues(company, input.groupKey, normalizeSubmissionValues(fields, input.fieldsValues));
    const errors = submissionValueErrors(fields, values, { companyCcc: companyCcc(company).map((row) => row.key) });
    if (Object.keys(errors).length > 0) throw fieldErrors(errors);
    if (await hasDuplicateAlta(this.db, caller.groupId, values)) throw duplicateAltaError();
    const id = randomUUID();
    const at = this.now().toISOString();
    await this.db
      .insertInto('altas_submissions')
      .values({
        id, group_id: caller.groupId, company_id: company.id, flow_id: ALTAS_FLOW_ID, group_key: input.groupKey ?? null, title: submissionTitle(values, company.name),
        fields_values: JSON.stringify(values), created_by: 'advisor', created_by_user: caller.userId, created_at: at, updated_at: at,
        red_at: null, red_resolution: null, a3_at: null, company_notified_at: null, afi_file: null, last_error: null, removed: 0,
      })
      .execute();
    return this.get(caller.groupId, id);
  }

  /** Home's notice: the altas companies sent that RED does not have yet (nor an AFI waiting), and the newest one's time. */
  async received(groupId: string): Promise<ReceivedSummary> {
    const row = await this.db
      .selectFrom('altas_submissions')
      .select((eb) => [eb.fn.countAll<number | string | bigint>().as('count'), eb.fn.max('created_at').as('newest')])
      .where('group_id', '=', groupId)
      .where('removed', '=', 0)
      .where('created_by', '=', 'client')
      .where('red_at', 'is', null)
      .where('afi_file', 'is', null)
      .executeTakeFirst();
    return { count: Number(row?.count ?? 0), newestAt: row?.newest ?? null };
  }

  async get(groupId: string, id: string): Promise<Submission> {
    const { row, company } = await findSubmission(this.db, groupId, id);
    return toSubmission(row, company.name);
  }

  /**
   * A correction: the sent values replace the stored ones key by key and the whole is checked again.
   * A file field may keep its file or be emptied (the file is deleted), never point at another file.
   */
  async update(groupId: string, id: string, patch: FieldsValues, fields: Record<string, FormField>): Promise<Submission> {
    const { row, company } = await findSubmission(this.db, groupId, id);
    const stored = parseJson<FieldsValues>(row.fields_values, {});
    const storedFiles = new Set(referencedFileIds(stored));
    const foreign = Object.entries(patch).filter(([key, value]) => isFile(value) && (!storedFiles.has(value.fileId) || !isFile(stored[key]) || stored[key].fileId !== value.fileId));
    if (foreign.length > 0) throw fieldErrors(Object.fromEntries(foreign.map(([key]) => [key, FILE_NOT_YOURS_MESSAGE])));
    const values = { ...stored, ...normalizeSubmissionValues(fields, patch) };
    const errors = submissionValueErrors(fields, values, { companyCcc: companyCcc(company).map((ccc) => ccc.key) });
    if (Object.keys(errors).length > 0) throw fieldErrors(errors);
    // A correction may not turn it into another alta of the same worker, day and CCC.
    if (await hasDuplicateAlta(this.db, groupId, values, id)) throw duplicateAltaError();
    const dropped = [...storedFiles].filter((fileId) => !referencedFileIds(values).includes(fileId));
    await this.db
      .updateTable('altas_submissions')
      .set({ fields_values: JSON.stringify(values), title: submissionTitle(values, company.name), updated_at: this.now().toISOString() })
      .where('id', '=', id)
      .execute();
    await this.removeFiles(groupId, dropped);
    return this.get(groupId, id);
  }

  /** Marked removed (it stays for the history); its files are deleted. */
  async remove(groupId: string, id: string): Promise<void> {
    const { row } = await findSubmission(this.db, groupId, id);
    await this.db.updateTable('altas_submissions').set({ removed: 1, updated_at: this.now().toISOString() }).where('id', '=', row.id).execute();
    const files = await this.db.selectFrom('altas_files').select('id').where('group_id', '=', groupId).where('submission_id', '=', row.id).execute();
    await this.removeFiles(groupId, files.map((file) => file.id));
  }

  private async removeFiles(groupId: string, fileIds: readonly string[]): Promise<void> {
    if (fileIds.length === 0) return;
    const files = await this.db.selectFrom('altas_files').select(['id', 'storage_key']).where('group_id', '=', groupId).where('id', 'in', fileIds).execute();
    await this.db.deleteFrom('altas_files').where('group_id', '=', groupId).where('id', 'in', fileIds).execute();
    await this.storage.remove(files.map((file) => file.storage_key));
  }

  /** A file attached to one of the firm's submissions, for the advisor to download. */
  async file(groupId: string, submissionId: string, fileId: string): Promise<{ data: Buffer; name: string; contentType: string }> {
    await findSubmission(this.db, groupId, submissionId);
    const file = await this.db.selectFrom('altas_files').selectAll().where('group_id', '=', groupId).where('submission_id', '=', submissionId).where('id', '=', fileId).executeTakeFirst();
    if (!file) throw notFound(FILE_NOT_FOUND_MESSAGE);
    const data = await this.storage.read(file.storage_key).catch(() => null);
    if (data === null) throw notFound(FILE_NOT_FOUND_MESSAGE);
    return { data, name: file.name, contentType: file.content_type };
  }
}

