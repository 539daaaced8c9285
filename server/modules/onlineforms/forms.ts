import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { FORM_NOT_PUBLISHED_MESSAGE, ONLINE_FORM_PAGE_PREFIX, type FormBody, type OnlineForm, type OnlineFormSummary, type SendLinkBody } from '#shared/api/onlineforms.ts';
import { templatePlaceholders, type TemplateContent } from '#shared/documents/blocks.ts';
import type { OnlineFormField } from '#shared/documents/form-fields.ts';
import { madridDayKey } from '#shared/time/index.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError, VALIDATION_MESSAGE } from '../../http/errors.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { ActiveSession } from '../auth/sessions.ts';
import { accessTo, forgetShares, sharedWith, type Access } from '../share/access.ts';
import { mailHtml } from './mail-html.ts';
import { FIELD_NOT_IN_TEMPLATE_MESSAGE, LINK_MAILS_TODAY_MESSAGE, templateNotFound, type OnlineFormCaps } from './messages.ts';
import { fieldsOf, formFor, type FormRow } from './store.ts';
import type { SubmissionFiles } from './submission-files.ts';

export interface OnlineFormsDeps {
  db: Kysely<Database>;
  now: () => Date;
  mailer: Mailer;
  publicUrl: string;
  caps: OnlineFormCaps;
  files: SubmissionFiles;
}

const publicPathOf = (form: Pick<FormRow, 'public_id'>) => `${ONLINE_FORM_PAGE_PREFIX}${form.public_id}`;

/**
 * The advisor's side of online forms (issue 40 §2): forms made from a template the caller may see,
 * kept as drafts until published (publishing copies the template in, so later edits to it never change
 * what clients sign), closed, deleted with their submissions, and their link mailed to clients.
 */
export class OnlineForms {
  /** Link mails sent today per firm ('<group>|<Madrid day>'), this process's count. */
  private readonly mailsToday = new Map<string, number>();

  constructor(private readonly deps: OnlineFormsDeps) {}

  async list(session: ActiveSession): Promise<{ items: OnlineFormSummary[] }> {
    const { db } = this.deps;
    const shared = await sharedWith(db, 'form', session.userId);
    const sharedIds = [...shared.keys()];
    const rows = await db
      .selectFrom('doc_forms as f')
      .innerJoin('users as u', 'u.id', 'f.owner_user_id')
      .selectAll('f')
      .select('u.name as owner_name')
      .where('f.group_id', '=', session.groupId)
      .where((eb) => (sharedIds.length === 0 ? eb('f.owner_user_id', '=', session.userId) : eb.or([eb('f.owner_user_id', '=', session.userId), eb('f.id', 'in', sharedIds)])))
      .orderBy('f.updated_at', 'desc')
      .orderBy('f.id')
      .execute();
    const counts = await this.submissionCounts(rows.map((row) => row.id));
    return {
      items: rows.map((row) => this.summaryOf(row, row.owner_user_id === session.userId ? 'owner' : (shared.get(row.id) ?? 'view'), row.owner_name, counts.get(row.id))),
    };
  }

  async get(session: ActiveSession, id: string): Promise<OnlineForm> {
    const { form, access } = await formFor(this.deps.db, session, id, 'read');
    return this.formOf(form, access);
  }

  async create(session: ActiveSession, body: FormBody): Promise<OnlineForm> {
    const template = await this.visibleTemplate(session, body.templateId);
    checkFields(body.fields, JSON.parse(template.content) as TemplateContent);
    const at = this.deps.now().toISOString();
    const form: FormRow = {
      id: randomUUID(),
      group_id: session.groupId,
      owner_user_id: session.userId,
      template_id: template.id,
      title: body.title,
      description: body.description,
      fields: JSON.stringify(body.fields),
      template_content: template.content,
      template_name: template.name,
      require_signature: body.requireSignature ? 1 : 0,
      status: 'draft',
      // 16 random bytes: 22 url-safe characters nobody guesses.
      public_id: randomBytes(16).toString('base64url'),
      created_at: at,
      updated_at: at,
      published_at: null,
    };
    await this.deps.db.insertInto('doc_forms').values(form).execute();
    return this.formOf(form, 'owner');
  }

  /** Its title, description, fields and template change at once; a published form keeps the template content it published until it is published again. */
  async update(session: ActiveSession, id: string, body: FormBody): Promise<OnlineForm> {
    const { db, now } = this.deps;
    const { form, access } = await formFor(db, session, id, 'edit');
    const template = body.templateId === form.template_id ? await this.templateRow(session, body.templateId) : await this.visibleTemplate(session, body.templateId);
    const content = template ? template.content : form.template_content;
    checkFields(body.fields, JSON.parse(content) as TemplateContent);
    const changes = {
      template_id: template?.id ?? form.template_id,
      title: body.title,
      description: body.description,
      fields: JSON.stringify(body.fields),
      require_signature: body.requireSignature ? 1 : 0,
      updated_at: now().toISOString(),
      // A draft follows its template; a published form keeps what it published until published again.
      ...(form.status === 'draft' && template && { template_content: template.content, template_name: template.name }),
    };
    await db.updateTable('doc_forms').set(changes).where('id', '=', form.id).execute();
    return this.formOf({ ...form, ...changes }, access);
  }

  /** Published (again): the template as it is now is copied in; its fields must still be its placeholders. */
  async publish(session: ActiveSession, id: string): Promise<OnlineForm> {
    const { db, now } = this.deps;
    const { form, access } = await formFor(db, session, id, 'edit');
    const template = form.template_id ? await db.selectFrom('doc_templates').select(['content', 'name']).where('id', '=', form.template_id).where('group_id', '=', form.group_id).executeTakeFirst() : undefined;
    const content = template?.content ?? form.template_content;
    checkFields(fieldsOf(form), JSON.parse(content) as TemplateContent);
    const at = now().toISOString();
    const changes = { status: 'published' as const, template_content: content, template_name: template?.name ?? form.template_name, updated_at: at, published_at: at };
    await db.updateTable('doc_forms').set(changes).where('id', '=', form.id).execute();
    return this.formOf({ ...form, ...changes }, access);
  }

  async close(session: ActiveSession, id: string): Promise<OnlineForm> {
    const { db, now } = this.deps;
    const { form, access } = await formFor(db, session, id, 'edit');
    const changes = { status: 'closed' as const, updated_at: now().toISOString() };
    await db.updateTable('doc_forms').set(changes).where('id', '=', form.id).execute();
    return this.formOf({ ...form, ...changes }, access);
  }

  /** The owner deletes the form: its submissions, their signatures and documents go too, and its shares. */
  async remove(session: ActiveSession, id: string): Promise<void> {
    const { db, files } = this.deps;
    const { form } = await formFor(db, session, id, 'owner');
    await files.removeForm(form);
    await forgetShares(db, 'form', form.id);
  }

  /** Mails the public link to each address (published forms only), within the firm's daily cap. */
  async sendLink(session: ActiveSession, id: string, body: SendLinkBody): Promise<{ sent: number }> {
    const { db, now, mailer, publicUrl, caps } = this.deps;
    const { form } = await formFor(db, session, id, 'edit');
    if (form.status !== 'published') throw new HttpError(409, 'FORM_NOT_PUBLISHED', FORM_NOT_PUBLISHED_MESSAGE);
    const emails = [...new Set(body.emails.map((email) => email.trim().toLowerCase()))];
    const day = `${session.groupId}|${madridDayKey(now())}`;
    const sentToday = this.mailsToday.get(day) ?? 0;
    if (sentToday + emails.length > caps.linkMailsPerFirmPerDay) throw new HttpError(429, 'TOO_MANY_MAILS', LINK_MAILS_TODAY_MESSAGE(caps.linkMailsPerFirmPerDay));
    // Counted before sending: two requests at once cannot both pass the cap.
    for (const key of this.mailsToday.keys()) if (key.startsWith(`${session.groupId}|`) && key !== day) this.mailsToday.delete(key);
    this.mailsToday.set(day, sentToday + emails.length);
    const [advisor, firm] = await Promise.all([
      db.selectFrom('users').select('name').where('id', '=', session.userId).executeTakeFirstOrThrow(),
      db.selectFrom('groups').select('name').where('id', '=', session.groupId).executeTakeFirstOrThrow(),
    ]);
    const link = `${publicUrl}${publicPathOf(form)}`;
    const message = body.message.trim();
    const intro = `${advisor.name}, de ${firm.name}, te pide que rellenes el formulario «${form.title}».`;
    const outro = 'Si no esperabas este correo, puedes ignorarlo.';
    const text = `Hola:\n\n${intro}\n\n${message ? `${message}\n\n` : ''}Ábrelo en este enlace (funciona también desde el móvil):\n${link}\n\n${outro}`;
    const html = mailHtml(['Hola:', intro, message, outro], { href: link, label: 'Abrir el formulario' });
    for (const to of emails) await mailer.sendMessage({ to, subject: `${firm.name}: ${form.title}`, text, html, link, purpose: 'online_form_link' });
    return { sent: emails.length };
  }

  private async templateRow(session: ActiveSession, templateId: string) {
    return this.deps.db.selectFrom('doc_templates').select(['id', 'owner_user_id', 'name', 'content']).where('id', '=', templateId).where('group_id', '=', session.groupId).executeTakeFirst();
  }

  /** The firm's template the caller owns or has been shared; else 404. */
  private async visibleTemplate(session: ActiveSession, templateId: string) {
    const template = await this.templateRow(session, templateId);
    if (!template || (await accessTo(this.deps.db, 'template', { id: template.id, ownerUserId: template.owner_user_id }, session.userId)) === null) throw templateNotFound();
    return template;
  }

  private async submissionCounts(formIds: readonly string[]): Promise<Map<string, { count: number; last: string | null }>> {
    if (formIds.length === 0) return new Map();
    const rows = await this.deps.db
      .selectFrom('doc_submissions')
      .select((eb) => ['form_id', eb.fn.countAll<number | string>().as('count'), eb.fn.max('created_at').as('last')])
      .where('form_id', 'in', formIds)
      .groupBy('form_id')
      .execute();
    return new Map(rows.map((row) => [row.form_id, { count: Number(row.count), last: row.last ?? null }]));
  }

  private summaryOf(form: FormRow, access: Access, ownerName: string, counts: { count: number; last: string | null } | undefined): OnlineFormSummary {
    return {
      id: form.id,
      title: form.title,
      templateId: form.template_id,
      templateName: form.template_name,
      status: form.status,
      publicPath: publicPathOf(form),
      submissions: counts?.count ?? 0,
      lastSubmissionAt: counts?.last ?? null,
      access,
      ownerName,
      updatedAt: form.updated_at,
    };
  }

  private async formOf(form: FormRow, access: Access): Promise<OnlineForm> {
    const [owner, counts] = await Promise.all([
      this.deps.db.selectFrom('users').select('name').where('id', '=', form.owner_user_id).executeTakeFirst(),
      this.submissionCounts([form.id]),
    ]);
    return { ...this.summaryOf(form, access, owner?.name ?? '', counts.get(form.id)), description: form.description, fields: fieldsOf(form), requireSignature: form.require_signature === 1 };
  }
}

/** Every field fills one of the template's placeholders, once; a select has options. Else 400 naming the field. */
export function checkFields(fields: readonly OnlineFormField[], content: TemplateContent): void {
  const placeholders = new Set(templatePlaceholders(content));
  const seen = new Set<string>();
  const issues: Array<{ path: string; message: string }> = [];
  const byKey: Record<string, string> = {};
  fields.forEach((field, index) => {
    let message: string | null = null;
    if (!placeholders.has(field.key)) message = `«${field.key}»: ${FIELD_NOT_IN_TEMPLATE_MESSAGE.toLowerCase()}`;
    else if (seen.has(field.key)) message = `«${field.key}» está repetido`;
    else if (field.type === 'select' && (field.options ?? []).length === 0) message = `«${field.key}»: escribe las opciones del desplegable`;
    seen.add(field.key);
    if (message !== null) {
      issues.push({ path: `fields.${index}.key`, message });
      byKey[field.key] = message;
    }
  });
  if (issues.length > 0) throw new HttpError(400, 'VALIDATION', VALIDATION_MESSAGE, { issues, details: { fields: byKey } });
}
