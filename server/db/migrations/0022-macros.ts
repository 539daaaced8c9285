import type { Kysely } from 'kysely';

/**
 * Macros (issue 41): robots a firm builds itself with the recorder, SmartBuilder or the scraper. A macro
 * is the firm's (group_id) and its owner's; every saved definition is a new row of macro_versions, so a
 * run names the version it ran and older ones stay readable. JSON is text, times ISO text. A deleted
 * macro keeps its row (deleted_at) so the history's runs and the flows row that names it stay readable.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('macros')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('owner_user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    /** The version a launch runs (macro_versions.version). */
    .addColumn('current_version', 'integer', (c) => c.notNull())
    /** Counts of the current version, kept so the list never reads a definition. */
    .addColumn('steps', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema.createIndex('macros_group_idx').on('macros').columns(['group_id', 'updated_at']).execute();

  await db.schema
    .createTable('macro_versions')
    .addColumn('macro_id', 'text', (c) => c.notNull().references('macros.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    /** JSON MacroDefinition (shared/macros/definition.ts), as parseMacro accepted it. */
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('macro_versions_pk', ['macro_id', 'version'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('macro_versions').execute();
  await db.schema.dropTable('macros').execute();
}
