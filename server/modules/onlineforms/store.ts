import type { Kysely, Selectable } from 'kysely';
import type { OnlineFormField } from '#shared/documents/form-fields.ts';
import type { TemplateContent } from '#shared/documents/blocks.ts';
import type { Database } from '../../db/schema.ts';
import type { DocFormsTable } from '../../db/schema-documents.ts';
import type { ActiveSession } from '../auth/sessions.ts';
import { accessTo, canEdit, type Access } from '../share/access.ts';
import { HttpError } from '../../http/errors.ts';
import { formNotFound, OWNER_ONLY_MESSAGE, VIEW_ONLY_MESSAGE } from './messages.ts';

export type FormRow = Selectable<DocFormsTable>;

export const fieldsOf = (form: Pick<FormRow, 'fields'>): OnlineFormField[] => JSON.parse(form.fields) as OnlineFormField[];
export const contentOf = (form: Pick<FormRow, 'template_content'>): TemplateContent => JSON.parse(form.template_content) as TemplateContent;

/** What the caller must be able to do with a form: read it, change it, or own it. */
export type FormNeed = 'read' | 'edit' | 'owner';

/**
 * The caller's firm's form and their access to it: 404 when it is another firm's, unknown or not
 * shared with them; 403 when they may read it but `need` asks for more.
 */
export async function formFor(db: Kysely<Database>, session: ActiveSession, id: string, need: FormNeed): Promise<{ form: FormRow; access: Access }> {
  const form = await db.selectFrom('doc_forms').selectAll().where('id', '=', id).where('group_id', '=', session.groupId).executeTakeFirst();
  if (!form) throw formNotFound();
  const access = await accessTo(db, 'form', { id: form.id, ownerUserId: form.owner_user_id }, session.userId);
  if (access === null) throw formNotFound();
  // They see it already: a clear 403 says what they may not do.
  if (need === 'edit' && !canEdit(access)) throw new HttpError(403, 'FORBIDDEN', VIEW_ONLY_MESSAGE);
  if (need === 'owner' && access !== 'owner') throw new HttpError(403, 'FORBIDDEN', OWNER_ONLY_MESSAGE);
  return { form, access };
}
