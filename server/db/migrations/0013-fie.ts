import type { Kysely } from 'kysely';

/**
 * The FIE module (issue 22): the documents a firm uploaded or created, their entries and the links
 * between them. An entry is stored once per firm (entry_key: the hash of its fields, the file's date
 * left out), so the INSS resending it in a later file links it to that document instead of doubling it.
 * The entry's derived facts are columns of their own, for the list's filters and its indexes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('fie_documents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    /** sha256 (hex) of the uploaded bytes; for a document made through the API, of its own id (never a duplicate). */
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text')
    /** 'text' | 'excel' | 'api' | 'siltra' | 'fier'. */
    .addColumn('source', 'text', (c) => c.notNull())
    /** 'FIE3' | 'FIE4', null for a spreadsheet or an API document. */
    .addColumn('version', 'text')
    /** dd/mm/yyyy, or 'first • last'. */
    .addColumn('registry_date', 'text')
    /** ISO day: the first registration date, else the upload day. */
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('entry_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    /**
     * 1 while an upload's entries are being written, batch by batch in short transactions (one long
     * transaction would hold SQLite's only connection, and every other firm's requests, for the whole
     * decode): such a document is not listed, and a failed or abandoned import is removed.
     */
    .addColumn('importing', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('fie_documents_group_hash_unique', ['group_id', 'content_hash'])
    .execute();
  await db.schema.createIndex('fie_documents_group_date_idx').on('fie_documents').columns(['group_id', 'date']).execute();

  await db.schema
    .createTable('fie_entries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('entry_key', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('nif', 'text')
    .addColumn('fullname', 'text', (c) => c.notNull())
    .addColumn('company_name', 'text')
    .addColumn('ccc', 'text')
    .addColumn('registration_date', 'text')
    .addColumn('leave_start', 'text')
    .addColumn('leave_end', 'text')
    /** leave_start, else registration_date: the day the list filters on. */
    .addColumn('entry_date', 'text')
    .addColumn('duration', 'integer')
    .addColumn('short_duration', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('canceled', 'integer', (c) => c.notNull().defaultTo(0))
    /** The contingency (1090) in words, '[[ Tabla no encontrada ]]' for an unknown code. */
    .addColumn('contingency', 'text')
    /** The A3 incident code (shared/a3 a3IncidentCode). */
    .addColumn('incidence_code', 'integer')
    /** Name, NIF and company in lower case without accents: what the search compares. */
    .addColumn('search_text', 'text', (c) => c.notNull())
    /** JSON of the FieFields record. */
    .addColumn('fields_json', 'text', (c) => c.notNull())
    /** 'pending' | 'synced' | 'error' | 'excluded' (the disabled types, never sent). */
    .addColumn('a3_state', 'text', (c) => c.notNull())
    .addColumn('a3_error', 'text')
    .addColumn('a3_synced_at', 'text')
    .addColumn('a3_run_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('fie_entries_group_key_unique', ['group_id', 'entry_key'])
    .execute();
  await db.schema.createIndex('fie_entries_group_date_idx').on('fie_entries').columns(['group_id', 'entry_date']).execute();
  await db.schema.createIndex('fie_entries_group_type_idx').on('fie_entries').columns(['group_id', 'type']).execute();
  await db.schema.createIndex('fie_entries_group_a3_idx').on('fie_entries').columns(['group_id', 'a3_state']).execute();
  await db.schema.createIndex('fie_entries_group_nif_idx').on('fie_entries').columns(['group_id', 'nif']).execute();

  await db.schema
    .createTable('fie_document_entries')
    .addColumn('document_id', 'text', (c) => c.notNull().references('fie_documents.id').onDelete('cascade'))
    .addColumn('entry_id', 'text', (c) => c.notNull().references('fie_entries.id').onDelete('cascade'))
    /** 0-based order of the entry in its document. */
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('fie_document_entries_pk', ['document_id', 'entry_id'])
    .execute();
  // Whether another document still links an entry (delete), and an entry's documents.
  await db.schema.createIndex('fie_document_entries_entry_idx').on('fie_document_entries').column('entry_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['fie_document_entries', 'fie_entries', 'fie_documents']) await db.schema.dropTable(table).execute();
}
