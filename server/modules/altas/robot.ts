import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { A3AltaRow, FieldsValues, FormField, PendingSummary, RedAltaRecord, RedResult, SubmissionProblem } from '#shared/api/altas.ts';
import { FIELD, formatAltaDay, toA3AltaRow, toRedAltaRecord, workerName } from '#shared/altas/index.ts';
import type { Database } from '../../db/schema.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { HttpError } from '../../http/errors.ts';
import { ALREADY_IN_A3_MESSAGE, ALREADY_REGISTERED_MESSAGE, NOT_REGISTERED_MESSAGE, SUBMISSION_NOT_FOUND_MESSAGE, SUBMISSION_REMOVED_MESSAGE } from './messages.ts';
import { companyCcc, findSubmission, type CompanyRow, type SubmissionRow } from './store.ts';
import { parseJson } from '../../db/json-column.ts';

interface Loaded {
  row: SubmissionRow;
  company: CompanyRow;
  values: FieldsValues;
}

/**
 * What the RED and A3 robots (desktop autopilot, or the advisor's screen) read and report: records
 * of the firm's submissions, and results that move a submission along its chain
 * (received -> RED -> A3 -> company told). Ids of another firm are listed as problems, like unknown ones.
 */
export class AltasRobot {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date,
    private readonly mailer: Mailer,
    private readonly log: FastifyBaseLogger,
  ) {}

  async pending(groupId: string): Promise<PendingSummary> {
    const base = this.db.selectFrom('altas_submissions').select(['id as _id', 'title']).where('group_id', '=', groupId).where('removed', '=', 0).orderBy('created_at').orderBy('id');
    const red = await base.where('red_at', 'is', null).where('afi_file', 'is', null).execute();
    const a3 = await base.where('red_at', 'is not', null).where('a3_at', 'is', null).execute();
    return { red, a3 };
  }

  /** The firm's submissions of these ids with their companies, in the order asked. */
  private async load(groupId: string, ids: readonly string[]): Promise<Map<string, Loaded>> {
    const unique = [...new Set(ids)];
    const rows = await this.db.selectFrom('altas_submissions').selectAll().where('group_id', '=', groupId).where('id', 'in', unique).execute();
    const companyIds = [...new Set(rows.map((row) => row.company_id))];
    const companies = companyIds.length === 0 ? [] : await this.db.selectFrom('altas_companies').selectAll().where('group_id', '=', groupId).where('id', 'in', companyIds).execute();
    const byId = new Map(companies.map((company) => [company.id, company]));
    const loaded = new Map<string, Loaded>();
    for (const row of rows) {
      const company = byId.get(row.company_id);
      if (company) loaded.set(row.id, { row, company, values: parseJson<FieldsValues>(row.fields_values, {}) });
    }
    return loaded;
  }

  private async build<T>(
    groupId: string,
    ids: readonly string[],
    refuse: (row: SubmissionRow) => string | null,
    make: (loaded: Loaded) => { ok: true; value: T } | { ok: false; problem: string },
  ): Promise<{ items: T[]; problems: SubmissionProblem[] }> {
    const loaded = await this.load(groupId, ids);
    const items: T[] = [];
    const problems: SubmissionProblem[] = [];
    for (const id of new Set(ids)) {
      const found = loaded.get(id);
      if (!found) {
        problems.push({ submissionId: id, title: '', message: SUBMISSION_NOT_FOUND_MESSAGE });
        continue;
      }
      const refusal = found.row.removed === 1 ? SUBMISSION_REMOVED_MESSAGE : refuse(found.row);
      const built = refusal === null ? make(found) : { ok: false as const, problem: refusal };
      if (built.ok) items.push(built.value);
      else problems.push({ submissionId: id, title: found.row.title, message: built.problem });
    }
    return { items, problems };
  }

  async redRecords(groupId: string, ids: readonly string[], fields: Record<string, FormField>): Promise<{ records: RedAltaRecord[]; problems: SubmissionProblem[] }> {
    const { items, problems } = await this.build(
      groupId,
      ids,
      (row) => (row.red_at !== null ? ALREADY_REGISTERED_MESSAGE : null),
      ({ row, company, values }) => toRedAltaRecord(fields, { id: row.id, companyName: company.name, companyCcc: companyCcc(company).map((ccc) => ccc.key), values }),
    );
    return { records: items, problems };
  }

  async a3Rows(groupId: string, ids: readonly string[], fields: Record<string, FormField>): Promise<{ rows: A3AltaRow[]; problems: SubmissionProblem[] }> {
    const { items, problems } = await this.build(
      groupId,
      ids,
      (row) => (row.red_at === null ? NOT_REGISTERED_MESSAGE : row.a3_at !== null ? ALREADY_IN_A3_MESSAGE : null),
      ({ row, company, values }) => toA3AltaRow(fields, { id: row.id, companyName: company.name, companyCcc: companyCcc(company).map((ccc) => ccc.key), values }),
    );
    return { rows: items, problems };
  }

  /**
   * RED's answers. 'registered' counts once (a second report of the same alta changes nothing and
   * mails nobody); then the company is told by mail, once. Ids of other firms or removed ones are skipped.
   */
  async redResults(groupId: string, results: readonly RedResult[]): Promise<number> {
    let updated = 0;
    const at = this.now().toISOString();
    for (const result of results) {
      const scope = this.db.updateTable('altas_submissions').where('group_id', '=', groupId).where('id', '=', result.submissionId).where('removed', '=', 0);
      let changed: bigint;
      if (result.state === 'registered') {
        changed = (await scope.set({ red_at: at, red_resolution: result.message, last_error: null, last_error_at: null, updated_at: at }).where('red_at', 'is', null).executeTakeFirst()).numUpdatedRows;
      } else if (result.state === 'error') {
        changed = (await scope.set({ last_error: result.message, last_error_at: at, updated_at: at }).where('red_at', 'is', null).executeTakeFirst()).numUpdatedRows;
      } else {
        changed = (await scope.set({ afi_file: result.afiFile ?? result.message, last_error: null, last_error_at: null, updated_at: at }).where('red_at', 'is', null).executeTakeFirst()).numUpdatedRows;
      }
      if (changed > 0n) updated += 1;
      if (changed > 0n && result.state === 'registered') await this.notifyCompany(groupId, result.submissionId);
    }
    return updated;
  }

  async a3Results(groupId: string, results: readonly { submissionId: string; state: 'synced' | 'error'; error: string | null }[]): Promise<number> {
    let updated = 0;
    const at = this.now().toISOString();
    for (const result of results) {
      const scope = this.db.updateTable('altas_submissions').where('group_id', '=', groupId).where('id', '=', result.submissionId).where('removed', '=', 0).where('red_at', 'is not', null)
        // An alta A3 already took keeps its state: a later refusal ('ya estaba registrada') is not its error.
        .where('a3_at', 'is', null);
      const set = result.state === 'synced' ? { a3_at: at, last_error: null, last_error_at: null, updated_at: at } : { last_error: result.error ?? 'Error en A3', last_error_at: at, updated_at: at };
      const { numUpdatedRows } = await scope.set(set).executeTakeFirst();
      if (numUpdatedRows > 0n) updated += 1;
    }
    return updated;
  }

  /**
   * 'Marcar como registrada' (issue 44, 3): the advisor filed it in RED by other means. Recorded with who
   * and when (red_at) and RED's reference if given, only while RED does not have it: another firm's or a
   * removed alta is 404, one already registered 409, and nothing is written. Then the company is told.
   */
  async markRegistered(caller: { groupId: string; userId: string }, submissionId: string, reference: string | null): Promise<void> {
    const { row } = await findSubmission(this.db, caller.groupId, submissionId);
    if (row.red_at !== null) throw new HttpError(409, 'CONFLICT', ALREADY_REGISTERED_MESSAGE);
    const user = await this.db.selectFrom('users').select(['name', 'email']).where('id', '=', caller.userId).where('group_id', '=', caller.groupId).executeTakeFirst();
    const at = this.now().toISOString();
    const { numUpdatedRows } = await this.db
      .updateTable('altas_submissions')
      .set({
        red_at: at, red_resolution: null, last_error: null, last_error_at: null, updated_at: at,
        red_manual_by: caller.userId, red_manual_by_name: user?.name || user?.email || '', red_manual_reference: reference === null || reference === '' ? null : reference,
      })
      .where('group_id', '=', caller.groupId)
      .where('id', '=', row.id)
      .where('removed', '=', 0)
      // Two clicks, or a robot's report, at the same time: only one registers it.
      .where('red_at', 'is', null)
      .executeTakeFirst();
    if (numUpdatedRows === 0n) throw new HttpError(409, 'CONFLICT', ALREADY_REGISTERED_MESSAGE);
    await this.notifyCompany(caller.groupId, row.id);
  }

  /**
   * Tells the company its worker is registered. The notification is claimed first (one mail even when
   * two reports race); a mail failure is logged and the claim released, so a later report can retry.
   */
  private async notifyCompany(groupId: string, submissionId: string): Promise<void> {
    const at = this.now().toISOString();
    const claim = await this.db.updateTable('altas_submissions').set({ company_notified_at: at }).where('group_id', '=', groupId).where('id', '=', submissionId).where('company_notified_at', 'is', null).executeTakeFirst();
    if (claim.numUpdatedRows === 0n) return;
    const loaded = (await this.load(groupId, [submissionId])).get(submissionId);
    if (!loaded) return;
    const { row, company, values } = loaded;
    const worker = workerName(values) || row.title;
    const ccc = typeof values[FIELD.ccc] === 'string' ? values[FIELD.ccc] : '';
    // Dates in mails as people write them (issue 44, 5): 09/12/2026, not 2026-12-09.
    const fechaReal = formatAltaDay(values[FIELD.fechaAlta]);
    const answer = row.red_manual_by_name !== null
      ? `Tu asesoría la ha registrado en Sistema RED.${row.red_manual_reference ? `\nNúmero de referencia: ${row.red_manual_reference}` : ''}`
      : `Respuesta de Sistema RED:\n${row.red_resolution ?? ''}`;
    try {
      await this.mailer.sendMessage({
        to: company.email,
        purpose: 'alta_registered',
        subject: `Alta registrada en la Seguridad Social: ${worker}`,
        text:
          `Hola:\n\nEl alta de ${worker} en ${company.name} ya está registrada en la Seguridad Social (Sistema RED).\n\n` +
          `Cuenta de cotización: ${ccc}\nFecha real de alta: ${fechaReal}\n\n${answer}`,
      });
    } catch (error) {
      this.log.error({ err: error, submissionId }, 'No se ha podido avisar a la empresa del alta registrada');
      await this.db.updateTable('altas_submissions').set({ company_notified_at: null }).where('id', '=', submissionId).execute();
    }
  }
}
