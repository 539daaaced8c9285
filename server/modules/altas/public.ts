import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import {
  ALTAS_FILE_EXTENSIONS, ALTAS_FILE_MAX_BYTES, ALTAS_FLOW_ID, BAD_CREDENTIALS_MESSAGE, FORM_URL_PREFIX, type FieldsValues, type FormField, type PublicForm, type SubmissionFile,
} from '#shared/api/altas.ts';
import { effectiveFields, normalizeSubmissionValues, submissionTitle, submissionValueErrors } from '#shared/altas/index.ts';
import { normalizeFilename } from '#shared/files/index.ts';
import { formConfigSlug } from '#shared/forms/index.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { GuardedAccounts } from '../auth/guard.ts';
import { burnPasswordCheck, verifyPassword } from '../auth/passwords.ts';
import type { FileStorage } from '../storage/service.ts';
import { overBytes, overCap, type AltasUploadCaps, type UploadUsage } from './form-caps.ts';
import { endSession, purgeFormSessions } from './form-sessions.ts';
import { definitionOf } from './forms.ts';
import { COMPANY_NOT_FOUND_MESSAGE, fieldErrors, FILE_NOT_YOURS_MESSAGE, FILE_TOO_LARGE_MESSAGE, FILE_TYPE_MESSAGE, FORM_NOT_FOUND_MESSAGE, FORM_SESSION_MESSAGE, notFound } from './messages.ts';
import { duplicateAltaError, hasDuplicateAlta } from './duplicates.ts';
import { queueAltaReceivedNotice } from './advisor-notice.ts';
import { companyCcc, companyGroups, formOverrides, logoPath, publicStatus, type FormRow } from './store.ts';
import { referencedFileIds, withGroupValues } from './submissions.ts';
import { receiveFile } from './uploads.ts';

/** The company's form session lasts 12 hours. */
export const FORM_SESSION_TTL_MS = 12 * 60 * 60 * 1000;
export const GROUP_REQUIRED_MESSAGE = 'Selecciona uno de los grupos de la empresa';

export interface FormSession {
  id: string;
  clientUserId: string;
  groupId: string;
  email: string;
}

const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
const formSessionRequired = () => new HttpError(401, 'UNAUTHENTICATED', FORM_SESSION_MESSAGE);
const isFile = (value: unknown): value is SubmissionFile => typeof value === 'object' && value !== null && 'fileId' in value;

/**
 * The company's side of altas (public routes, own cookie session): signing in with the emailed
 * credentials, its form, its submissions and the files it attaches. It never sees another company's
 * data or the advisor's group values.
 */
export class AltasPublic {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date,
    private readonly storage: FileStorage,
    private readonly caps: AltasUploadCaps,
    /** The web app's base URL: the advisors' notice of a new alta links to it. */
    private readonly publicUrl: string,
  ) {}

  private async formBySlug(slug: string): Promise<FormRow | undefined> {
    return this.db.selectFrom('altas_forms').selectAll().where('url', '=', FORM_URL_PREFIX + slug).where('flow_id', '=', ALTAS_FLOW_ID).executeTakeFirst();
  }

  /**
   * Whose password a sign-in to this form guesses, for the password guard (auth/guard.ts): the firm's
   * company of that email. Counted per client and per (client, form and email): whoever knows the form
   * and the address cannot lock the company out from elsewhere. A lock is mailed to the company.
   */
  formAccounts(url: string, email: string): { account: string; accounts: GuardedAccounts } {
    const slug = formConfigSlug(url);
    return {
      account: `${slug}|${email}`,
      accounts: {
        prefix: 'form',
        lockScope: 'client',
        lockNotice: async (_account, until, failures) => {
          const form = await this.formBySlug(slug);
          if (!form) return null;
          const user = await this.db.selectFrom('altas_client_users').select('email').where('group_id', '=', form.group_id).where('email', '=', email).executeTakeFirst();
          if (!user) return null;
          const firm = await this.db.selectFrom('groups').select('name').where('id', '=', form.group_id).executeTakeFirstOrThrow();
          return {
            to: user.email,
            subject: `Hemos bloqueado temporalmente unos intentos de entrar en el formulario de altas de ${firm.name}`,
            text:
              `Hola:\n\nHa habido ${failures} intentos fallidos de entrar en el formulario de altas de ${firm.name} con ${user.email} desde una misma ` +
              `dirección de internet, así que no se aceptan más intentos desde ella hasta las ${until} (hora de Madrid). Desde otras direcciones ` +
              `se puede seguir entrando con normalidad.\n\nSi no has sido tú, no tienes que hacer nada. Si has olvidado la contraseña, pide a ` +
              `${firm.name} que te envíe una nueva.`,
          };
        },
      },
    };
  }

  /**
   * Signs a company in (the routes count the attempt with the password guard first): wrong password,
   * unknown email, unknown form or disabled access all answer the same 401.
   */
  async signIn(input: { url: string; email: string; password: string }): Promise<{ token: string; expiresAt: Date; email: string }> {
    const nowMs = this.now().getTime();
    const refused = () => new HttpError(401, 'BAD_CREDENTIALS', BAD_CREDENTIALS_MESSAGE);
    const form = await this.formBySlug(formConfigSlug(input.url));
    const user = form
      ? await this.db.selectFrom('altas_client_users').selectAll().where('group_id', '=', form.group_id).where('email', '=', input.email).executeTakeFirst()
      : undefined;
    if (!form || !user?.password_hash) {
      await burnPasswordCheck(input.password);
      throw refused();
    }
    if (!(await verifyPassword(user.password_hash, input.password))) throw refused();
    const enabled = await this.db.selectFrom('altas_companies').select('id').where('client_user_id', '=', user.id).where('credentials_enabled', '=', 1).where('removed', '=', 0).executeTakeFirst();
    if (!enabled) throw refused();
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(nowMs + FORM_SESSION_TTL_MS);
    await this.db
      .insertInto('altas_client_sessions')
      .values({ id: randomUUID(), token_hash: hashToken(token), client_user_id: user.id, group_id: form.group_id, expires_at: expiresAt.toISOString(), created_at: new Date(nowMs).toISOString() })
      .execute();
    return { token, expiresAt, email: user.email };
  }

  /** Ends the session; the files it uploaded without sending them go with it. */
  async signOut(token: string | undefined): Promise<void> {
    if (!token || token.length > 100) return;
    const session = await this.db.selectFrom('altas_client_sessions').select('id').where('token_hash', '=', hashToken(token)).executeTakeFirst();
    if (session) await endSession(this.db, this.storage, session.id);
  }

  /** The live session of this cookie for this firm's form, or null. */
  async session(token: string | undefined, groupId: string): Promise<FormSession | null> {
    if (!token || token.length > 100) return null;
    const row = await this.db
      .selectFrom('altas_client_sessions as s')
      .innerJoin('altas_client_users as u', 'u.id', 's.client_user_id')
      .select(['s.id', 's.client_user_id', 's.group_id', 's.expires_at', 'u.email'])
      .where('s.token_hash', '=', hashToken(token))
      .executeTakeFirst();
    if (!row || row.group_id !== groupId || row.expires_at <= this.now().toISOString()) return null;
    return { id: row.id, clientUserId: row.client_user_id, groupId: row.group_id, email: row.email };
  }

  private async requireForm(slug: string): Promise<FormRow> {
    const form = await this.formBySlug(slug);
    if (!form) throw notFound(FORM_NOT_FOUND_MESSAGE);
    return form;
  }

  private async requireSession(form: FormRow, token: string | undefined): Promise<FormSession> {
    const session = await this.session(token, form.group_id);
    if (!session) throw formSessionRequired();
    return session;
  }

  /** The companies a session may fill the form for: its client user's, not removed, with access on. */
  private companiesOf(session: FormSession) {
    return this.db.selectFrom('altas_companies').selectAll().where('group_id', '=', session.groupId).where('client_user_id', '=', session.clientUserId).where('removed', '=', 0).where('credentials_enabled', '=', 1).orderBy('name').execute();
  }

  async form(slug: string, token: string | undefined): Promise<PublicForm> {
    const form = await this.requireForm(slug);
    const title = form.title ?? definitionOf(form).title;
    const logo = form.logo_id ? logoPath(form.logo_id) : null;
    const session = await this.session(token, form.group_id);
    if (!session) return { title, logo, session: null };
    const companies = await this.companiesOf(session);
    const fields = clientFields(effectiveFields(formOverrides(form)));
    const formPages = definitionOf(form)
      .defaultFormPages.map((page) => ({ title: page.title, fields: page.fields.filter((key) => key in fields) }))
      .filter((page) => page.fields.length > 0);
    const companyIds = companies.map((company) => company.id);
    const submissions = companyIds.length === 0
      ? []
      : await this.db.selectFrom('altas_submissions').select(['id', 'title', 'company_id', 'created_at', 'red_at', 'last_error']).where('group_id', '=', form.group_id).where('company_id', 'in', companyIds).where('removed', '=', 0).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
    const names = new Map(companies.map((company) => [company.id, company.name]));
    return {
      title,
      logo,
      session: {
        email: session.email,
        companies: companies.map((company) => ({ _id: company.id, name: company.name, ccc: companyCcc(company), groups: companyGroups(company).map(({ key, text }) => ({ key, text })) })),
        fields,
        formPages,
        submissions: submissions.map((row) => ({ _id: row.id, title: row.title, company: names.get(row.company_id) ?? '', createdAt: row.created_at, registered: row.red_at !== null, status: publicStatus(row) })),
      },
    };
  }

  /**
   * A worker's alta from the company: its fields checked (CCC one of that company's; age and date
   * order, shared/altas/alta-rules.ts), the chosen group's advisor values merged under them, only files
   * this very session uploaded attached, and the same worker, fecha de alta and CCC as another alta of
   * the firm refused (409).
   */
  async submit(slug: string, token: string | undefined, input: { companyId: string; groupKey: string; fieldsValues: FieldsValues }): Promise<{ _id: string }> {
    const form = await this.requireForm(slug);
    const session = await this.requireSession(form, token);
    const company = (await this.companiesOf(session)).find((candidate) => candidate.id === input.companyId);
    if (!company) throw notFound(COMPANY_NOT_FOUND_MESSAGE);
    if (!companyGroups(company).some((group) => group.key === input.groupKey)) throw fieldErrors({ groupKey: GROUP_REQUIRED_MESSAGE }, null);
    const fields = effectiveFields(formOverrides(form));
    const sent = normalizeSubmissionValues(fields, input.fieldsValues);
    const errors = submissionValueErrors(fields, sent, { companyCcc: companyCcc(company).map((row) => row.key), writers: ['client'] });
    const fileIds = referencedFileIds(sent);
    const files = fileIds.length === 0
      ? []
      : await this.db.selectFrom('altas_files').selectAll().where('group_id', '=', form.group_id).where('session_id', '=', session.id).where('submission_id', 'is', null).where('id', 'in', fileIds).execute();
    const owned = new Map(files.map((file) => [file.id, file]));
    const values: FieldsValues = {};
    for (const [key, value] of Object.entries(sent)) {
      if (!isFile(value)) {
        values[key] = value;
        continue;
      }
      const file = owned.get(value.fileId);
      if (!file) errors[key] = FILE_NOT_YOURS_MESSAGE;
      else values[key] = { fileId: file.id, name: file.name, size: file.size, type: file.content_type };
    }
    if (new Set(fileIds).size !== fileIds.length) errors.files = FILE_NOT_YOURS_MESSAGE;
    if (Object.keys(errors).length > 0) throw fieldErrors(errors);
    const merged = withGroupValues(company, input.groupKey, values);
    if (await hasDuplicateAlta(this.db, form.group_id, merged)) throw duplicateAltaError();
    const id = randomUUID();
    const at = this.now().toISOString();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('altas_submissions')
        .values({
          id, group_id: form.group_id, company_id: company.id, flow_id: ALTAS_FLOW_ID, group_key: input.groupKey, title: submissionTitle(merged, company.name),
          fields_values: JSON.stringify(merged), created_by: 'client', created_by_user: null, created_at: at, updated_at: at,
          red_at: null, red_resolution: null, a3_at: null, company_notified_at: null, afi_file: null, last_error: null, removed: 0,
        })
        .execute();
      await queueAltaReceivedNotice(trx, { id, groupId: form.group_id, companyName: company.name, values: merged }, this.publicUrl, this.now());
      if (fileIds.length === 0) return;
      // Only files still unattached: a second alta sent at the same time with the same file loses.
      const attached = await trx.updateTable('altas_files').set({ submission_id: id }).where('session_id', '=', session.id).where('submission_id', 'is', null).where('id', 'in', fileIds).executeTakeFirst();
      if (Number(attached.numUpdatedRows) !== fileIds.length) throw fieldErrors({ files: FILE_NOT_YOURS_MESSAGE }, null);
    });
    return { _id: id };
  }

  /**
   * The session is checked before the upload is read (routes call this first): live, with a company
   * whose access is on, and under the caps (form-caps.ts) with one file more.
   */
  async uploadTarget(slug: string, token: string | undefined): Promise<FormSession> {
    const session = await this.requireSession(await this.requireForm(slug), token);
    if ((await this.companiesOf(session)).length === 0) throw formSessionRequired();
    const refusal = overCap(this.caps, withOneMore(await this.usage(session), 1));
    if (refusal) throw refusal;
    return session;
  }

  /** The unsent files of the session, the company and the firm, and what the company uploaded in 24 h. */
  private async usage(session: FormSession): Promise<UploadUsage> {
    const files = () => this.db.selectFrom('altas_files').select((eb) => [eb.fn.countAll<number | string>().as('count'), eb.fn.sum<number | string | null>('size').as('bytes')]);
    const dayAgo = new Date(this.now().getTime() - 24 * 60 * 60 * 1000).toISOString();
    const [own, company, firm, day] = await Promise.all([
      files().where('session_id', '=', session.id).where('submission_id', 'is', null).executeTakeFirstOrThrow(),
      files().where('group_id', '=', session.groupId).where('client_user_id', '=', session.clientUserId).where('submission_id', 'is', null).executeTakeFirstOrThrow(),
      files().where('group_id', '=', session.groupId).where('submission_id', 'is', null).executeTakeFirstOrThrow(),
      files().where('group_id', '=', session.groupId).where('client_user_id', '=', session.clientUserId).where('created_at', '>', dayAgo).executeTakeFirstOrThrow(),
    ]);
    return {
      sessionFiles: Number(own.count),
      companyFiles: Number(company.count),
      companyBytes: Number(company.bytes ?? 0),
      firmFiles: Number(firm.count),
      firmBytes: Number(firm.bytes ?? 0),
      dayFiles: Number(day.count),
      dayBytes: Number(day.bytes ?? 0),
    };
  }

  /** Every firm's ended sessions and the files they never sent (the timer in app.ts). */
  purge(): Promise<{ sessions: number; files: number }> {
    return purgeFormSessions(this.db, this.storage, this.now());
  }

  /**
   * Stores one file for a signed-in company, judged by its content (uploads.ts) and capped while it
   * streams by the file cap and what the caps leave. Once stored it is counted again with everything
   * uploaded meanwhile (and its session checked again): over a cap, it is removed and refused.
   */
  async storeFile(session: FormSession, fileName: string, file: Readable & { truncated?: boolean }): Promise<SubmissionFile> {
    const before = await this.usage(session);
    const fileCap = () => new HttpError(413, 'FILE_TOO_LARGE', FILE_TOO_LARGE_MESSAGE);
    const id = randomUUID();
    const storageKey = `${session.groupId}/altas/${id}`;
    const { size, contentType } = await receiveFile(this.storage, storageKey, fileName, file, {
      types: ALTAS_FILE_EXTENSIONS,
      maxBytes: ALTAS_FILE_MAX_BYTES,
      tooLarge: fileCap,
      // Past what a cap leaves, that cap's refusal.
      typesMessage: FILE_TYPE_MESSAGE,
      fits: (bytes) => overBytes(this.caps, withOneMore(before, bytes)),
    });
    const name = normalizeFilename(fileName) || 'archivo';
    let stored = false;
    try {
      await this.db
        .insertInto('altas_files')
        .values({ id, group_id: session.groupId, client_user_id: session.clientUserId, session_id: session.id, submission_id: null, name, size, content_type: contentType, storage_key: storageKey, created_at: this.now().toISOString() })
        .execute();
      stored = true;
      const live = await this.db.selectFrom('altas_client_sessions').select('id').where('id', '=', session.id).where('expires_at', '>', this.now().toISOString()).executeTakeFirst();
      if (!live) throw formSessionRequired();
      const refusal = overCap(this.caps, await this.usage(session));
      if (refusal) throw refusal;
    } catch (error) {
      if (stored) await this.db.deleteFrom('altas_files').where('id', '=', id).execute();
      await this.storage.remove([storageKey]);
      throw error;
    }
    return { fileId: id, name, size, type: contentType };
  }
}

/** The usage with one more file of `bytes` (its count and bytes in every cap it falls under). */
function withOneMore(usage: UploadUsage, bytes: number): UploadUsage {
  return {
    sessionFiles: usage.sessionFiles + 1,
    companyFiles: usage.companyFiles + 1,
    companyBytes: usage.companyBytes + bytes,
    firmFiles: usage.firmFiles + 1,
    firmBytes: usage.firmBytes + bytes,
    dayFiles: usage.dayFiles + 1,
    dayBytes: usage.dayBytes + bytes,
  };
}

/** The fields the company fills, in the form's order. */
function clientFields(fields: Record<string, FormField>): Record<string, FormField> {
  return Object.fromEntries(Object.entries(fields).filter(([, field]) => field.fieldWriter === 'client'));
}
