import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { ALTAS_FLOW_ID, altasPaths, type ClientCompany, type CccRow, type CompanyGroup, type FieldsValues, type FormPage, type PublicSubmissionStatus, type Submission } from '#shared/api/altas.ts';
import type { FieldOverrides } from '#shared/altas/index.ts';
import type { Database } from '../../db/schema.ts';
import type { AltasCompaniesTable, AltasFormsTable, AltasSubmissionsTable } from '../../db/schema-altas.ts';
import { COMPANY_NOT_FOUND_MESSAGE, notFound, SUBMISSION_NOT_FOUND_MESSAGE } from './messages.ts';
import { parseJson } from '../../db/json-column.ts';

/** Reading and writing the altas tables, and turning their rows into the contract's shapes. */

export interface AltasCaller {
  groupId: string;
  userId: string;
}

export type FormRow = Selectable<AltasFormsTable>;
export type CompanyRow = Selectable<AltasCompaniesTable>;
export type SubmissionRow = Selectable<AltasSubmissionsTable>;

export const DEFAULT_CONFIGURATION_NAME = 'Alta de trabajador';

export const logoPath = (logoId: string) => altasPaths.formLogo.replace(':id', logoId);

/** The firm's form of the alta flow, created on first use (spec §4: "create the configuration if missing"). */
export async function ensureForm(db: Kysely<Database>, groupId: string, now: Date): Promise<FormRow> {
  const existing = await db.selectFrom('altas_forms').selectAll().where('group_id', '=', groupId).where('flow_id', '=', ALTAS_FLOW_ID).executeTakeFirst();
  if (existing) return existing;
  const at = now.toISOString();
  await db
    .insertInto('altas_forms')
    .values({ id: randomUUID(), group_id: groupId, flow_id: ALTAS_FLOW_ID, title: null, url: null, logo_id: null, logo_key: null, logo_mime: null, configuration_name: DEFAULT_CONFIGURATION_NAME, form_pages: null, field_overrides: '{}', created_at: at, updated_at: at })
    .onConflict((conflict) => conflict.columns(['group_id', 'flow_id']).doNothing())
    .execute();
  return db.selectFrom('altas_forms').selectAll().where('group_id', '=', groupId).where('flow_id', '=', ALTAS_FLOW_ID).executeTakeFirstOrThrow();
}

export const formOverrides = (form: FormRow): FieldOverrides => parseJson<FieldOverrides>(form.field_overrides, {});
export const formPages = (form: FormRow): FormPage[] | null => parseJson<FormPage[] | null>(form.form_pages, null);

export const companyCcc = (company: Pick<CompanyRow, 'ccc_list'>): CccRow[] => parseJson<CccRow[]>(company.ccc_list, []);
export const companyGroups = (company: Pick<CompanyRow, 'groups'>): CompanyGroup[] => parseJson<CompanyGroup[]>(company.groups, []);

export function toClientCompany(row: CompanyRow): ClientCompany {
  return {
    _id: row.id,
    credentials: { client: row.client_user_id, enabled: row.credentials_enabled === 1, emailSentAt: row.email_sent_at },
    formToFlowConfiguration: row.form_id,
    fieldsValues: { nombreEmpresa: row.name, email: row.email, CCC: companyCcc(row) },
    groups: companyGroups(row),
    open: row.open === 1,
    removed: row.removed === 1,
    createdAt: row.created_at,
  };
}

export function toSubmission(row: SubmissionRow, companyName: string): Submission {
  return {
    _id: row.id,
    title: row.title,
    flowId: row.flow_id,
    company: { _id: row.company_id, name: companyName },
    groupKey: row.group_key,
    fieldsValues: parseJson<FieldsValues>(row.fields_values, {}),
    processed: { syncSistemaRed: row.red_at, syncA3: row.a3_at },
    chain: { receivedAt: row.created_at, redAt: row.red_at, a3At: row.a3_at, companyNotifiedAt: row.company_notified_at },
    redResolution: row.red_resolution,
    afiFile: row.afi_file,
    lastError: row.last_error,
    lastErrorAt: row.last_error === null ? null : row.last_error_at,
    manualRegistration: row.red_manual_by_name === null ? null : { byName: row.red_manual_by_name, reference: row.red_manual_reference },
    createdBy: row.created_by,
    createdAt: row.created_at,
    removed: row.removed === 1,
  };
}

/**
 * Where an alta stands as its company sees it: in the Seguridad Social once RED has it; 'attention' while
 * RED's refusal waits for the firm (the company never sees RED's own error); else received.
 */
export function publicStatus(row: Pick<SubmissionRow, 'red_at' | 'last_error'>): PublicSubmissionStatus {
  if (row.red_at !== null) return 'registered';
  return row.last_error !== null ? 'attention' : 'received';
}

/** A company of the firm (removed ones included: their submissions stay), or 404. */
export async function findCompany(db: Kysely<Database>, groupId: string, id: string): Promise<CompanyRow> {
  const row = await db.selectFrom('altas_companies').selectAll().where('group_id', '=', groupId).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(COMPANY_NOT_FOUND_MESSAGE);
  return row;
}

/** A submission of the firm with its company's name, or 404 (removed ones too unless asked). */
export async function findSubmission(db: Kysely<Database>, groupId: string, id: string, options: { includeRemoved?: boolean } = {}): Promise<{ row: SubmissionRow; company: CompanyRow }> {
  let query = db.selectFrom('altas_submissions').selectAll().where('group_id', '=', groupId).where('id', '=', id);
  if (options.includeRemoved !== true) query = query.where('removed', '=', 0);
  const row = await query.executeTakeFirst();
  if (!row) throw notFound(SUBMISSION_NOT_FOUND_MESSAGE);
  return { row, company: await findCompany(db, groupId, row.company_id) };
}
