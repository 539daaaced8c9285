import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { FORM_CLOSED_MESSAGE, SIGNATURE_REQUIRED_MESSAGE, type PublicOnlineForm, type PublicSubmissionBody } from '#shared/api/onlineforms.ts';
import { checkOnlineFormValues, documentValuesOf, type OnlineFormField, type OnlineFormValues } from '#shared/documents/form-fields.ts';
import { formatMadridDate, formatMadridDateTime } from '#shared/time/index.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { DocumentGenerator } from '../documents/generator.ts';
import type { FileStorage } from '../storage/service.ts';
import { mailHtml } from './mail-html.ts';
import { fieldErrors, FIRM_FULL_TODAY_MESSAGE, firmBytesMessage, FORM_FULL_TODAY_MESSAGE, formBytesMessage, formNotFound, type OnlineFormCaps } from './messages.ts';
import { signaturePngOf } from './signature.ts';
import { contentOf, fieldsOf, type FormRow } from './store.ts';

/** What a submission's document is generated with: the documents module's DocumentGenerator (server/modules/documents/generator.ts). */
/** What the online forms need of the documents module's DocumentGenerator: a document made from an answer. */
export type SubmissionDocumentGenerator = Pick<DocumentGenerator, 'generate'>;

export interface PublicFormsDeps {
  db: Kysely<Database>;
  now: () => Date;
  storage: FileStorage;
  generator: SubmissionDocumentGenerator;
  mailer: Mailer;
  publicUrl: string;
  caps: OnlineFormCaps;
  log: FastifyBaseLogger;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const signatureRequired = () =>
  new HttpError(400, 'SIGNATURE_REQUIRED', SIGNATURE_REQUIRED_MESSAGE, { issues: [{ path: 'signature', message: SIGNATURE_REQUIRED_MESSAGE }], details: { fields: { signature: SIGNATURE_REQUIRED_MESSAGE } } });

/** A field that names the client company: 'Razón social', 'Empresa', 'Nombre de la empresa'… */
const COMPANY_KEY = /raz[oó]n social|empresa|compa[ñn][ií]a|sociedad/i;

/**
 * The client's side of an online form (public, no session): the form by its unguessable public id, and
 * a submission checked with the same rules the page used, its drawn signature judged by its bytes,
 * within the form's and the firm's caps. A refused request leaves nothing: no row, no file. An accepted
 * one generates its document and tells the form's owner, both off the request's answer.
 */
export class PublicForms {
  /** Owner notices not yet sent (awaited on close). */
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly deps: PublicFormsDeps) {}

  /** A published form; 404 for an unknown or draft one, 410 for a closed one. */
  private async liveForm(publicId: string): Promise<FormRow> {
    const form = await this.deps.db.selectFrom('doc_forms').selectAll().where('public_id', '=', publicId).executeTakeFirst();
    if (!form || form.status === 'draft') throw formNotFound();
    if (form.status === 'closed') throw new HttpError(410, 'FORM_CLOSED', FORM_CLOSED_MESSAGE);
    return form;
  }

  async form(publicId: string): Promise<PublicOnlineForm> {
    const form = await this.liveForm(publicId);
    const firm = await this.deps.db.selectFrom('groups').select('name').where('id', '=', form.group_id).executeTakeFirstOrThrow();
    return { title: form.title, description: form.description, firmName: firm.name, fields: fieldsOf(form), requireSignature: form.require_signature === 1 };
  }

  async submit(publicId: string, body: PublicSubmissionBody): Promise<{ id: string; receivedAt: string }> {
    const { db, now, storage } = this.deps;
    const form = await this.liveForm(publicId);
    const fields = fieldsOf(form);
    const { values, errors } = checkOnlineFormValues(fields, body.values);
    if (Object.keys(errors).length > 0) throw fieldErrors(errors, 'values');
    const signature = body.signature ? signaturePngOf(body.signature) : null;
    if (!signature && form.require_signature === 1) throw signatureRequired();
    const signerName = body.signerName?.trim() || null;
    const valuesJson = JSON.stringify(values);
    const bytes = Buffer.byteLength(valuesJson) + (signature?.length ?? 0);
    const refusal = await this.overCap(form, 1, bytes);
    if (refusal) throw refusal;

    const id = randomUUID();
    const received = now();
    const signatureKey = signature ? `${form.group_id}/onlineforms/${form.id}/${id}.png` : null;
    let inserted = false;
    try {
      if (signatureKey && signature) await storage.write(signatureKey, signature);
      await db
        .insertInto('doc_submissions')
        .values({ id, form_id: form.id, group_id: form.group_id, values: valuesJson, search_text: searchTextOf(values, signerName), signer_name: signerName, signature_key: signatureKey, bytes, document_id: null, created_at: received.toISOString() })
        .execute();
      inserted = true;
      // Counted again with everything that came meanwhile: two at once cannot both pass a cap.
      const late = await this.overCap(form, 0, 0);
      if (late) throw late;
    } catch (error) {
      if (inserted) await db.deleteFrom('doc_submissions').where('id', '=', id).execute();
      if (signatureKey) await storage.remove([signatureKey]);
      throw error;
    }

    await this.generateDocument(form, fields, { id, values, signerName, signature, received });
    this.track(this.notifyOwner(form, received));
    return { id, receivedAt: received.toISOString() };
  }

  /** The refusal for the first cap the form or firm is over with `count` more submissions of `bytes`, or null. */
  private async overCap(form: FormRow, count: number, bytes: number): Promise<HttpError | null> {
    const { db, now, caps } = this.deps;
    const dayAgo = new Date(now().getTime() - DAY_MS).toISOString();
    const counted = () => db.selectFrom('doc_submissions').select((eb) => eb.fn.countAll<number | string>().as('count'));
    // What they hold: their own bytes (signature and values) and their generated PDF and .docx.
    const held = () =>
      db
        .selectFrom('doc_submissions as s')
        .leftJoin('doc_documents as d', 'd.id', 's.document_id')
        .select((eb) => [eb.fn.sum<number | string | null>('s.bytes').as('own'), eb.fn.sum<number | string | null>('d.pdf_size').as('pdf'), eb.fn.sum<number | string | null>('d.docx_size').as('docx')]);
    const total = (row: { own: number | string | null; pdf: number | string | null; docx: number | string | null }) => Number(row.own ?? 0) + Number(row.pdf ?? 0) + Number(row.docx ?? 0);
    const [formDay, firmDay, formHeld, firmHeld] = await Promise.all([
      counted().where('form_id', '=', form.id).where('created_at', '>', dayAgo).executeTakeFirstOrThrow(),
      counted().where('group_id', '=', form.group_id).where('created_at', '>', dayAgo).executeTakeFirstOrThrow(),
      held().where('s.form_id', '=', form.id).executeTakeFirstOrThrow(),
      held().where('s.group_id', '=', form.group_id).executeTakeFirstOrThrow(),
    ]);
    const formAll = { bytes: total(formHeld) };
    const firmAll = { bytes: total(firmHeld) };
    if (Number(formDay.count) + count > caps.submissionsPerFormPerDay) return new HttpError(429, 'FORM_FULL_TODAY', FORM_FULL_TODAY_MESSAGE);
    if (Number(firmDay.count) + count > caps.submissionsPerFirmPerDay) return new HttpError(429, 'FIRM_FULL_TODAY', FIRM_FULL_TODAY_MESSAGE);
    if (formAll.bytes + bytes > caps.bytesPerForm) return new HttpError(413, 'STORAGE_CAP', formBytesMessage(caps.bytesPerForm));
    if (firmAll.bytes + bytes > caps.bytesPerFirm) return new HttpError(413, 'STORAGE_CAP', firmBytesMessage(caps.bytesPerFirm));
    return null;
  }

  /** Starts the submission's PDF (the generator renders it in the background); a failure to start is logged, the answer kept. */
  private async generateDocument(
    form: FormRow,
    fields: OnlineFormField[],
    submission: { id: string; values: OnlineFormValues; signerName: string | null; signature: Buffer | null; received: Date },
  ): Promise<void> {
    const { db, generator, log } = this.deps;
    const firstValue = fields.map((field) => submission.values[field.key]).find((value): value is string => typeof value === 'string' && value !== '');
    const who = submission.signerName ?? firstValue ?? 'respuesta';
    const companyField = fields.find((field) => COMPANY_KEY.test(field.key));
    const companyValue = companyField ? submission.values[companyField.key] : undefined;
    const signed = submission.signature ? `Firmado electrónicamente${submission.signerName ? ` por ${submission.signerName}` : ''} el ${formatMadridDateTime(submission.received)}` : '';
    try {
      const { documentId } = await generator.generate({
        groupId: form.group_id,
        ownerUserId: null,
        templateId: form.template_id,
        submissionId: submission.id,
        name: `${form.title} - ${who.slice(0, 80)} - ${formatMadridDate(submission.received).replaceAll('/', '-')}`,
        company: typeof companyValue === 'string' && companyValue !== '' ? companyValue : null,
        content: contentOf(form),
        values: { ...documentValuesOf(fields, submission.values), SIGNATURE: signed },
        ...(submission.signature && { signaturePng: new Uint8Array(submission.signature) }),
      });
      await db.updateTable('doc_submissions').set({ document_id: documentId }).where('id', '=', submission.id).execute();
    } catch (error) {
      log.error({ err: error, submissionId: submission.id }, 'No se ha podido empezar a generar el documento de una respuesta de formulario');
    }
  }

  /** 'Nueva respuesta en <form>' to the form's owner, with a link to it; a failure is only logged. */
  private async notifyOwner(form: FormRow, received: Date): Promise<void> {
    const { db, mailer, publicUrl, log } = this.deps;
    try {
      const owner = await db.selectFrom('users').select(['email', 'name']).where('id', '=', form.owner_user_id).executeTakeFirst();
      if (!owner) return;
      const link = `${publicUrl}/documentcreator?form=${form.id}`;
      const greeting = `Hola, ${owner.name}:`;
      const news = `El formulario «${form.title}» ha recibido una respuesta el ${formatMadridDateTime(received)}.`;
      await mailer.sendMessage({
        to: owner.email,
        subject: `Nueva respuesta en ${form.title}`,
        text: `${greeting}\n\n${news}\n\nVerla y descargar su documento:\n${link}`,
        html: mailHtml([greeting, news], { href: link, label: 'Ver la respuesta' }),
        link,
        purpose: 'online_form_submission',
      });
    } catch (error) {
      log.warn({ err: error, formId: form.id }, 'No se ha podido avisar de una respuesta nueva de formulario');
    }
  }

  private track(task: Promise<void>): void {
    this.pending.add(task);
    void task.finally(() => this.pending.delete(task));
  }

  /** Waits for the owner notices under way (app close). */
  async settle(): Promise<void> {
    await Promise.all([...this.pending]);
  }
}

/** Lower-case text of every value and the signer, for the list's search. */
export function searchTextOf(values: OnlineFormValues, signerName: string | null): string {
  const parts = Object.values(values).filter((value): value is string => typeof value === 'string' && value !== '');
  if (signerName) parts.push(signerName);
  return parts.join(' \u2502 ').toLowerCase();
}
