import type { Kysely } from 'kysely';

/**
 * File retention (issue 18): uploads and outputs are kept FILE_RETENTION_DAYS (30) and then deleted by
 * the server's sweeper (modules/retention). An upload's row goes with its file; an output's row stays,
 * marked expired_at, so the history still lists the run's files by name and says they are gone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('stored_files').addColumn('expired_at', 'text').execute();
  // The sweeper's scan: one kind's files older than the cutoff.
  await db.schema.createIndex('stored_files_kind_created_idx').on('stored_files').columns(['kind', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('stored_files_kind_created_idx').execute();
  await db.schema.alterTable('stored_files').dropColumn('expired_at').execute();
}
