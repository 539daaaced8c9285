import type { Kysely } from 'kysely';

/**
 * Uploads are inspected once, when they arrive (issue 18), and what was found is kept with them: the
 * type their content is, and for workbooks the first sheet's name, header columns and data rows, for
 * FIE files their entries. The columns route and the launch's estimate read these instead of the file.
 * Null on outputs and on uploads stored before this migration (those are inspected when first asked).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  /** 'xlsx', 'xls', 'ods', 'csv', 'fie', 'txt', 'pdf', 'png'…: what the content turned out to be. */
  await db.schema.alterTable('stored_files').addColumn('detected_type', 'text').execute();
  await db.schema.alterTable('stored_files').addColumn('sheet_name', 'text').execute();
  /** JSON array of the header's non-empty cells, in order. */
  await db.schema.alterTable('stored_files').addColumn('sheet_columns', 'text').execute();
  await db.schema.alterTable('stored_files').addColumn('row_count', 'integer').execute();
  await db.schema.alterTable('stored_files').addColumn('entry_count', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['entry_count', 'row_count', 'sheet_columns', 'sheet_name', 'detected_type']) {
    await db.schema.alterTable('stored_files').dropColumn(column).execute();
  }
}
