import type { Kysely } from 'kysely';

/**
 * The document manager (issue 40 §4) lists a firm's files from several tables newest first: each of
 * its branches reads one table by (group_id, created_at). stored_files and doc_documents have such an
 * index already; these are the others'.
 */
const INDEXES = [
  { name: 'altas_files_group_created_idx', table: 'altas_files' },
  { name: 'fie_documents_group_created_idx', table: 'fie_documents' },
  { name: 'dehu_documents_group_created_idx', table: 'dehu_documents' },
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const { name, table } of INDEXES) await db.schema.createIndex(name).on(table).columns(['group_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const { name } of INDEXES) await db.schema.dropIndex(name).execute();
}
