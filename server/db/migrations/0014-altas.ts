import type { Kysely } from 'kysely';

/**
 * Altas y bajas (issue 23): a firm's form settings, the companies it serves and their client users
 * (who sign in to the public form with their own sessions), the workers' submissions and the files
 * companies attach. JSON is text, booleans 0/1, times ISO text.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('altas_forms')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('flow_id', 'text', (c) => c.notNull())
    .addColumn('title', 'text')
    /** '/form/flows/<slug>': unique across every firm, the public form is found by it. */
    .addColumn('url', 'text', (c) => c.unique())
    .addColumn('logo_id', 'text')
    .addColumn('logo_key', 'text')
    .addColumn('logo_mime', 'text')
    .addColumn('configuration_name', 'text', (c) => c.notNull())
    /** JSON FormPage[] or null for the built-in pages. */
    .addColumn('form_pages', 'text')
    /** JSON { [fieldKey]: FieldOverride }. */
    .addColumn('field_overrides', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('altas_forms_group_flow_unique', ['group_id', 'flow_id'])
    .execute();

  await db.schema
    .createTable('altas_client_users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    /** Lower case. */
    .addColumn('email', 'text', (c) => c.notNull())
    /** argon2id; null until the first credentials email. */
    .addColumn('password_hash', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('altas_client_users_group_email_unique', ['group_id', 'email'])
    .execute();
  await db.schema.createIndex('altas_client_users_email_idx').on('altas_client_users').column('email').execute();

  await db.schema
    .createTable('altas_companies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('client_user_id', 'text', (c) => c.notNull().references('altas_client_users.id').onDelete('cascade'))
    .addColumn('form_id', 'text', (c) => c.notNull().references('altas_forms.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    /** JSON CccRow[]. */
    .addColumn('ccc_list', 'text', (c) => c.notNull())
    /** JSON CompanyGroup[]. */
    .addColumn('groups', 'text', (c) => c.notNull())
    .addColumn('credentials_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('email_sent_at', 'text')
    .addColumn('open', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('removed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('altas_companies_group_idx').on('altas_companies').columns(['group_id', 'removed']).execute();
  await db.schema.createIndex('altas_companies_client_idx').on('altas_companies').column('client_user_id').execute();

  await db.schema
    .createTable('altas_submissions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('company_id', 'text', (c) => c.notNull().references('altas_companies.id').onDelete('cascade'))
    .addColumn('flow_id', 'text', (c) => c.notNull())
    .addColumn('group_key', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    /** JSON FieldsValues. */
    .addColumn('fields_values', 'text', (c) => c.notNull())
    /** 'advisor' | 'client'. */
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_by_user', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('red_at', 'text')
    .addColumn('red_resolution', 'text')
    .addColumn('a3_at', 'text')
    .addColumn('company_notified_at', 'text')
    .addColumn('afi_file', 'text')
    .addColumn('last_error', 'text')
    .addColumn('removed', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('altas_submissions_group_created_idx').on('altas_submissions').columns(['group_id', 'created_at']).execute();
  await db.schema.createIndex('altas_submissions_company_idx').on('altas_submissions').columns(['company_id', 'created_at']).execute();

  await db.schema
    .createTable('altas_client_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    /** sha256 hex of the cookie's token. */
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('client_user_id', 'text', (c) => c.notNull().references('altas_client_users.id').onDelete('cascade'))
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('altas_client_sessions_group_idx').on('altas_client_sessions').column('group_id').execute();

  await db.schema
    .createTable('altas_files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('client_user_id', 'text', (c) => c.references('altas_client_users.id').onDelete('cascade'))
    /** The company session that uploaded it: only that session may attach it to a submission. */
    .addColumn('session_id', 'text')
    /** Null until a submission references it. */
    .addColumn('submission_id', 'text', (c) => c.references('altas_submissions.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('altas_files_group_idx').on('altas_files').columns(['group_id', 'submission_id']).execute();
  await db.schema.createIndex('altas_files_session_idx').on('altas_files').column('session_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['altas_files', 'altas_client_sessions', 'altas_submissions', 'altas_companies', 'altas_client_users', 'altas_forms']) await db.schema.dropTable(table).execute();
}
