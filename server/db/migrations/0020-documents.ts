import type { Kysely } from 'kysely';

/**
 * Documents (issue 40): the document creator's categories and templates, the documents generated from
 * them (PDF and .docx in storage), online forms made from a template and the submissions clients send
 * through them, objects shared with colleagues, and users' Google sign-in. JSON is text, booleans
 * 0/1, times ISO text. Every row is a firm's (group_id); the public form is found by its public_id.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('doc_categories')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('doc_categories_group_name_unique', ['group_id', 'name'])
    .execute();

  await db.schema
    .createTable('doc_templates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('owner_user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('category_id', 'text', (c) => c.references('doc_categories.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    /** JSON TemplateContent (shared/documents/blocks.ts). */
    .addColumn('content', 'text', (c) => c.notNull())
    /** JSON string[]: its data placeholders, and whether it takes a signature, kept so lists never read the content (images). */
    .addColumn('placeholders', 'text', (c) => c.notNull())
    .addColumn('takes_signature', 'integer', (c) => c.notNull())
    /** The starter it was made from ('autorizacion-red'…), or null. */
    .addColumn('starter_key', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('doc_templates_group_idx').on('doc_templates').columns(['group_id', 'updated_at']).execute();

  await db.schema
    .createTable('doc_forms')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('owner_user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('template_id', 'text', (c) => c.references('doc_templates.id').onDelete('set null'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    /** JSON OnlineFormField[] (shared/documents/form-fields.ts). */
    .addColumn('fields', 'text', (c) => c.notNull())
    /** JSON TemplateContent: the template as it was when the form was published (later edits do not change what clients sign). */
    .addColumn('template_content', 'text', (c) => c.notNull())
    .addColumn('template_name', 'text', (c) => c.notNull())
    .addColumn('require_signature', 'integer', (c) => c.notNull())
    /** 'draft' | 'published' | 'closed'. */
    .addColumn('status', 'text', (c) => c.notNull())
    /** The unguessable id in the public link /online-form/<public_id>; unique across every firm. */
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('published_at', 'text')
    .execute();
  await db.schema.createIndex('doc_forms_group_idx').on('doc_forms').columns(['group_id', 'updated_at']).execute();

  await db.schema
    .createTable('doc_submissions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('form_id', 'text', (c) => c.notNull().references('doc_forms.id').onDelete('cascade'))
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    /** JSON OnlineFormValues, checked by checkOnlineFormValues. */
    .addColumn('values', 'text', (c) => c.notNull())
    /** Lower-case text of every value, for the list's search. */
    .addColumn('search_text', 'text', (c) => c.notNull())
    .addColumn('signer_name', 'text')
    .addColumn('signature_key', 'text')
    .addColumn('bytes', 'integer', (c) => c.notNull())
    /** The generated document (doc_documents.id) once its PDF is made. */
    .addColumn('document_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('doc_submissions_form_idx').on('doc_submissions').columns(['form_id', 'created_at']).execute();
  await db.schema.createIndex('doc_submissions_group_idx').on('doc_submissions').columns(['group_id', 'created_at']).execute();

  await db.schema
    .createTable('doc_documents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    /** Who generated it; null for one made from a client's submission. */
    .addColumn('owner_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('template_id', 'text', (c) => c.references('doc_templates.id').onDelete('set null'))
    .addColumn('submission_id', 'text', (c) => c.references('doc_submissions.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    /** The client company it is about, when known (the document manager groups by it). */
    .addColumn('company', 'text')
    /** 'generating' | 'ready' | 'failed'. */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('pdf_key', 'text')
    .addColumn('pdf_size', 'integer')
    .addColumn('docx_key', 'text')
    .addColumn('docx_size', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('doc_documents_group_idx').on('doc_documents').columns(['group_id', 'created_at']).execute();

  await db.schema
    .createTable('shares')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    /** 'template' | 'form' | 'schedule' | 'flow-settings'. */
    .addColumn('object_kind', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text', (c) => c.notNull())
    /** The colleague it is shared with. */
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    /** 'view' | 'edit'. */
    .addColumn('access', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('shares_object_user_unique', ['object_kind', 'object_id', 'user_id'])
    .execute();
  await db.schema.createIndex('shares_user_idx').on('shares').columns(['user_id', 'object_kind']).execute();

  /** Google's subject id of a user who signed in with Google (linked once, by a verified email). */
  await db.schema.alterTable('users').addColumn('google_sub', 'text').execute();
  await db.schema.createIndex('users_google_sub_unique').on('users').column('google_sub').unique().execute();
  /** A Google sign-in under way: its state, PKCE verifier and nonce, for 10 minutes. */
  await db.schema
    .createTable('google_sign_ins')
    .addColumn('state', 'text', (c) => c.primaryKey())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('redirect_to', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('google_sign_ins').execute();
  await db.schema.dropIndex('users_google_sub_unique').execute();
  await db.schema.alterTable('users').dropColumn('google_sub').execute();
  for (const table of ['shares', 'doc_documents', 'doc_submissions', 'doc_forms', 'doc_templates', 'doc_categories']) await db.schema.dropTable(table).execute();
}
