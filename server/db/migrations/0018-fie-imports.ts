import type { Kysely } from 'kysely';

/**
 * Issue 39 (6): who is writing a FIE upload's entries. An upload's document stays `importing = 1` while
 * its entries are written; the process doing it keeps a lease here (its owner: host, process id and a
 * random id of its start; a heartbeat it renews while it imports). A document still importing whose
 * owner is gone (a killed or restarted server) is abandoned: it is removed before the firm's next
 * upload looks for duplicates, so the same file is accepted again at once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('fie_imports')
    .addColumn('document_id', 'text', (c) => c.primaryKey().references('fie_documents.id').onDelete('cascade'))
    /** `<host>:<pid>:<start id>` of the server process importing. */
    .addColumn('owner', 'text', (c) => c.notNull())
    /** ISO time the owner last said it was still importing. */
    .addColumn('heartbeat_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('fie_imports').execute();
}
