import { randomInt, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  EMAIL_IN_USE_MESSAGE, MAIL_FAILED_MESSAGE, noGroupMessage, type CccRow, type ClientCompany, type CompanyGroup, type FieldsValues, type FormField,
} from '#shared/api/altas.ts';
import { cccRowProblems, groupRuleErrors, groupValueErrors, normalizeSubmissionValues } from '#shared/altas/index.ts';
import { keyValueRowsToSave } from '#shared/forms/index.ts';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { hashPassword } from '../auth/passwords.ts';
import type { FileStorage } from '../storage/service.ts';
import { endClientSessions } from './form-sessions.ts';
import { COMPANY_NOT_FOUND_MESSAGE, fieldErrors, GROUP_NOT_FOUND_MESSAGE, notFound } from './messages.ts';
import { companyGroups, ensureForm, findCompany, toClientCompany, type CompanyRow } from './store.ts';

export const FORM_URL_MISSING_MESSAGE = 'Configura el título y la URL del formulario antes de enviar el email';
export const CONFIGURATION_NOT_FOUND_MESSAGE = 'No se ha encontrado esta configuración';

/** Letters and digits that cannot be mistaken for each other when read off an email (no 0/O, 1/l/I). */
const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
const PASSWORD_LENGTH = 12;

export function readablePassword(): string {
  let password = '';
  for (let index = 0; index < PASSWORD_LENGTH; index += 1) password += PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)];
  return password;
}

/** A CCC list as saved: blank rows dropped, every row with its name and a valid CCC, or a 400 saying what each row lacks. */
function cccListToSave(rows: readonly CccRow[], path: string): CccRow[] {
  const errors: Record<string, string> = {};
  const kept = keyValueRowsToSave(rows);
  cccRowProblems(kept).forEach((problem, index) => {
    if (problem !== null) errors[`${path}.${index}`] = problem.message;
  });
  if (Object.keys(errors).length > 0) throw fieldErrors(errors, null);
  return kept.map((row) => ({ label: row.label, key: row.key.replace(/[\s./-]/g, '') }));
}

/** Spec §4 Company actions: the firm's client companies, their client users and groups, and their credentials. */
export class AltasCompanies {
  private readonly db: Kysely<Database>;

  constructor(
    private readonly ctx: AppContext,
    private readonly storage: FileStorage,
  ) {
    this.db = ctx.db;
  }

  async list(groupId: string): Promise<ClientCompany[]> {
    const rows = await this.db.selectFrom('altas_companies').selectAll().where('group_id', '=', groupId).where('removed', '=', 0).orderBy('name').orderBy('id').execute();
    return rows.map(toClientCompany);
  }

  async get(groupId: string, id: string): Promise<ClientCompany> {
    return toClientCompany(await this.liveCompany(groupId, id));
  }

  private async liveCompany(groupId: string, id: string): Promise<CompanyRow> {
    const row = await findCompany(this.db, groupId, id);
    if (row.removed === 1) throw notFound(COMPANY_NOT_FOUND_MESSAGE);
    return row;
  }

  /**
   * The firm's client user for this email: reused when the firm has one, else created. Emails are
   * unique within a firm only: another firm's clients and users are never looked at (issue 39 §5),
   * so the answer tells nothing about them. A member of this firm's own email is refused (409).
   */
  private async clientUserFor(groupId: string, email: string, name: string): Promise<string> {
    const member = await this.db.selectFrom('users').select('id').where('group_id', '=', groupId).where('email', '=', email).executeTakeFirst();
    if (member) throw new HttpError(409, 'EMAIL_IN_USE', EMAIL_IN_USE_MESSAGE);
    const at = this.ctx.now().toISOString();
    // Two creations with a new email at once: one inserts, the other finds it (unique per firm and email).
    await this.db
      .insertInto('altas_client_users')
      .values({ id: randomUUID(), group_id: groupId, name, email, password_hash: null, created_at: at, updated_at: at })
      .onConflict((conflict) => conflict.columns(['group_id', 'email']).doNothing())
      .execute();
    const own = await this.db.selectFrom('altas_client_users').select('id').where('group_id', '=', groupId).where('email', '=', email).executeTakeFirstOrThrow();
    return own.id;
  }

  async create(groupId: string, input: { name: string; email: string; cccList: CccRow[] }): Promise<ClientCompany> {
    const ccc = cccListToSave(input.cccList, 'cccList');
    const clientUserId = await this.clientUserFor(groupId, input.email, input.name);
    const form = await ensureForm(this.db, groupId, this.ctx.now());
    const id = randomUUID();
    const at = this.ctx.now().toISOString();
    await this.db
      .insertInto('altas_companies')
      .values({
        id, group_id: groupId, client_user_id: clientUserId, form_id: form.id, name: input.name, email: input.email, ccc_list: JSON.stringify(ccc), groups: '[]',
        credentials_enabled: 0, email_sent_at: null, open: 0, removed: 0, created_at: at, updated_at: at,
      })
      .execute();
    return this.get(groupId, id);
  }

  /** PATCH form-to-flow-user/client/:id: name, email (moves the company to that email's client user) and CCC list. */
  async updateClient(groupId: string, id: string, input: { name?: string | undefined; email?: string | undefined; cccList?: CccRow[] | undefined }): Promise<ClientCompany> {
    const company = await this.liveCompany(groupId, id);
    const ccc = input.cccList === undefined ? undefined : cccListToSave(input.cccList, 'cccList');
    const emailChanges = input.email !== undefined && input.email !== company.email;
    const clientUserId = emailChanges && input.email !== undefined ? await this.clientUserFor(groupId, input.email, input.name ?? company.name) : company.client_user_id;
    await this.db
      .updateTable('altas_companies')
      .set({
        ...(input.name !== undefined && { name: input.name }),
        ...(input.email !== undefined && { email: input.email }),
        ...(ccc !== undefined && { ccc_list: JSON.stringify(ccc) }),
        // A new address has no password yet: the company needs a new email to sign in.
        ...(emailChanges && { client_user_id: clientUserId, credentials_enabled: 0, email_sent_at: null }),
        updated_at: this.ctx.now().toISOString(),
      })
      .where('id', '=', id)
      .execute();
    // The old address's sessions end with the files they never sent (the company is no longer theirs).
    if (emailChanges) await endClientSessions(this.db, this.storage, company.client_user_id);
    return this.get(groupId, id);
  }

  /** PATCH form-to-flow-client: credentials on/off, configuration, name and CCC list, open. */
  async updateCompany(groupId: string, input: {
    _id: string;
    credentials?: { enabled: boolean } | undefined;
    formToFlowConfiguration?: string | undefined;
    fieldsValues?: { nombreEmpresa?: string | undefined; CCC?: CccRow[] | undefined } | undefined;
    open?: boolean | undefined;
  }): Promise<ClientCompany> {
    const company = await this.liveCompany(groupId, input._id);
    if (input.formToFlowConfiguration !== undefined) {
      const form = await ensureForm(this.db, groupId, this.ctx.now());
      if (form.id !== input.formToFlowConfiguration) throw notFound(CONFIGURATION_NOT_FOUND_MESSAGE);
    }
    const ccc = input.fieldsValues?.CCC === undefined ? undefined : cccListToSave(input.fieldsValues.CCC, 'fieldsValues.CCC');
    await this.db
      .updateTable('altas_companies')
      .set({
        ...(input.credentials !== undefined && { credentials_enabled: input.credentials.enabled ? 1 : 0 }),
        ...(input.fieldsValues?.nombreEmpresa !== undefined && { name: input.fieldsValues.nombreEmpresa }),
        ...(ccc !== undefined && { ccc_list: JSON.stringify(ccc) }),
        ...(input.open !== undefined && { open: input.open ? 1 : 0 }),
        updated_at: this.ctx.now().toISOString(),
      })
      .where('id', '=', input._id)
      .execute();
    // Access turned off: the company's open sessions end, and the files they never sent go.
    if (input.credentials?.enabled === false) await endClientSessions(this.db, this.storage, company.client_user_id);
    return this.get(groupId, input._id);
  }

  /** The company is marked removed (its submissions stay); its open sessions end and their unsent files go. */
  async remove(groupId: string, id: string): Promise<void> {
    const company = await this.liveCompany(groupId, id);
    await this.db.updateTable('altas_companies').set({ removed: 1, credentials_enabled: 0, updated_at: this.ctx.now().toISOString() }).where('id', '=', id).execute();
    await endClientSessions(this.db, this.storage, company.client_user_id);
  }

  /**
   * Adds (POST) or changes (PATCH) groups by key. The advisor's values are checked against the
   * firm's 'userBefore' fields (formats only), and the group as it will be saved against the rules
   * across them (the coefficient against the jornada). PATCH of a key the company lacks is 404.
   */
  async saveGroups(groupId: string, id: string, body: Record<string, { text: string; fieldsValues?: FieldsValues | undefined }>, mode: 'add' | 'change', fields: Record<string, FormField>): Promise<ClientCompany> {
    const company = await this.liveCompany(groupId, id);
    const groups = companyGroups(company);
    const errors: Record<string, string> = {};
    const saved = new Map<string, Record<string, string | boolean | null>>();
    for (const [key, group] of Object.entries(body)) {
      for (const [field, message] of Object.entries(groupValueErrors(fields, group.fieldsValues ?? {}))) errors[`${key}.fieldsValues.${field}`] = message;
      const values = Object.fromEntries(Object.entries(normalizeSubmissionValues(fields, group.fieldsValues ?? {})).filter((entry): entry is [string, string | boolean | null] => typeof entry[1] !== 'object' || entry[1] === null));
      const existing = groups.find((candidate) => candidate.key === key);
      const merged = mode === 'change' && existing ? { ...existing.fieldsValues, ...values } : values;
      for (const [field, message] of Object.entries(groupRuleErrors(fields, merged))) errors[`${key}.fieldsValues.${field}`] ??= message;
      saved.set(key, merged);
    }
    if (Object.keys(errors).length > 0) throw fieldErrors(errors, null);
    for (const [key, group] of Object.entries(body)) {
      const values = saved.get(key) ?? {};
      const existing = groups.find((candidate) => candidate.key === key);
      if (existing) {
        existing.text = group.text;
        existing.fieldsValues = values;
      } else if (mode === 'change') {
        throw notFound(GROUP_NOT_FOUND_MESSAGE);
      } else {
        groups.push({ key, text: group.text, fieldsValues: values });
      }
    }
    await this.writeGroups(id, groups);
    return this.get(groupId, id);
  }

  async deleteGroup(groupId: string, id: string, key: string): Promise<ClientCompany> {
    const company = await this.liveCompany(groupId, id);
    const groups = companyGroups(company);
    if (!groups.some((group) => group.key === key)) throw notFound(GROUP_NOT_FOUND_MESSAGE);
    await this.writeGroups(id, groups.filter((group) => group.key !== key));
    return this.get(groupId, id);
  }

  private async writeGroups(id: string, groups: CompanyGroup[]): Promise<void> {
    await this.db.updateTable('altas_companies').set({ groups: JSON.stringify(groups), updated_at: this.ctx.now().toISOString() }).where('id', '=', id).execute();
  }

  /**
   * Emails the company its form link and a new password. The new hash is written only once the mail
   * went out: when mail fails (502) the old password still works. The client user's open form
   * sessions end (the old password no longer opens one).
   */
  async sendEmail(groupId: string, id: string): Promise<{ email: string }> {
    const company = await this.liveCompany(groupId, id);
    if (companyGroups(company).length === 0) throw new HttpError(409, 'NO_GROUP', noGroupMessage(company.name));
    const form = await ensureForm(this.db, groupId, this.ctx.now());
    if (form.url === null) throw new HttpError(409, 'FORM_URL_MISSING', FORM_URL_MISSING_MESSAGE);
    const firm = await this.db.selectFrom('groups').select('name').where('id', '=', groupId).executeTakeFirstOrThrow();
    const password = readablePassword();
    const passwordHash = await hashPassword(password);
    const link = this.ctx.publicUrl + form.url;
    try {
      await this.ctx.mailer.sendMessage({
        to: company.email,
        purpose: 'form_credentials',
        subject: `Formulario de altas de ${firm.name}`,
        link,
        text:
          `Hola:\n\n${firm.name} te da acceso a su formulario de altas de trabajadores para ${company.name}.\n\n` +
          `Formulario: ${link}\nUsuario: ${company.email}\nContraseña: ${password}\n\n` +
          'Si tenías una contraseña anterior, ya no sirve: usa esta.',
      });
    } catch {
      throw new HttpError(502, 'MAIL_FAILED', MAIL_FAILED_MESSAGE);
    }
    const at = this.ctx.now().toISOString();
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('altas_client_users').set({ password_hash: passwordHash, updated_at: at }).where('id', '=', company.client_user_id).execute();
      await trx.deleteFrom('altas_client_sessions').where('client_user_id', '=', company.client_user_id).execute();
      await trx.updateTable('altas_companies').set({ credentials_enabled: 1, email_sent_at: at, updated_at: at }).where('id', '=', id).execute();
    });
    // The ended sessions' unsent files can no longer be attached.
    await endClientSessions(this.db, this.storage, company.client_user_id);
    return { email: company.email };
  }
}
