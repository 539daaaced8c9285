import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { FieListQuery } from '#shared/api/fie.ts';
import type { Database } from '../../db/schema.ts';
import type { FieDocumentsTable } from '../../db/schema-fie.ts';
import { initialA3State, type EntryFacts, type EntryRow } from './entries.ts';
import { timeOrderedId } from './entry-ids.ts';
import { listFilterConditions } from './list-filters.ts';
import { refreshPartes } from './partes.ts';

/** The database side of the FIE module: documents, entries stored once per firm, and their links. */

type Db = Kysely<Database> | Transaction<Database>;

/** Rows per insert statement: SQLite binds at most 32,766 values per statement, an entry row has 21. */
const INSERT_CHUNK = 200;
/** Ids or keys per `in (...)` list. */
const LIST_CHUNK = 500;

export const ENTRY_COLUMNS = [
  'e.id', 'e.type', 'e.nif', 'e.fullname', 'e.company_name', 'e.ccc', 'e.registration_date', 'e.leave_start', 'e.leave_end',
  'e.duration', 'e.short_duration', 'e.canceled', 'e.contingency', 'e.incidence_code', 'e.a3_state', 'e.a3_error', 'e.a3_synced_at',
  'e.parte_key', 'e.is_current',
] as const;

export type DocumentRow = FieDocumentsTable;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

/** A whole document of the firm (one still importing is not found). */
export async function findDocument(db: Db, groupId: string, id: string): Promise<DocumentRow | undefined> {
  return db.selectFrom('fie_documents').selectAll().where('group_id', '=', groupId).where('id', '=', id).where('importing', '=', 0).executeTakeFirst();
}

/**
 * A document of the firm, its row locked for the rest of the transaction: writes to one document's
 * entries (replace, append, delete) run one after the other. On PostgreSQL two at once each read the
 * links before the other's commit and collided on them (a 500); an update is the lock both databases take.
 */
export async function lockDocument(trx: Transaction<Database>, groupId: string, id: string): Promise<DocumentRow | undefined> {
  const locked = await trx.updateTable('fie_documents').set({ entry_count: sql`entry_count` }).where('group_id', '=', groupId).where('id', '=', id).where('importing', '=', 0).executeTakeFirst();
  return locked.numUpdatedRows > 0n ? findDocument(trx, groupId, id) : undefined;
}

export async function findDocumentByHash(db: Db, groupId: string, contentHash: string): Promise<DocumentRow | undefined> {
  return db.selectFrom('fie_documents').selectAll().where('group_id', '=', groupId).where('content_hash', '=', contentHash).executeTakeFirst();
}

export async function insertDocument(db: Db, row: DocumentRow): Promise<void> {
  await db.insertInto('fie_documents').values(row).execute();
}

/** Removes a document, its links and the entries no other document links. */
export async function deleteDocument(db: Db, groupId: string, id: string): Promise<void> {
  const unlinked = await unlinkDocumentEntries(db, id);
  await deleteOrphanEntries(db, groupId, unlinked);
  await deleteImport(db, id);
  await db.deleteFrom('fie_documents').where('id', '=', id).where('group_id', '=', groupId).execute();
}

/** A document still importing, with the lease of the process writing it (none: an import older than leases, or half made). */
export interface ImportingRow {
  id: string;
  group_id: string;
  owner: string | null;
  heartbeat_at: string | null;
}

/** Every document still importing (of one firm, or of all). */
export async function importingDocuments(db: Db, groupId?: string): Promise<ImportingRow[]> {
  return db
    .selectFrom('fie_documents as d')
    .leftJoin('fie_imports as i', 'i.document_id', 'd.id')
    .select(['d.id', 'd.group_id', 'i.owner', 'i.heartbeat_at'])
    .where('d.importing', '=', 1)
    .$if(groupId !== undefined, (qb) => qb.where('d.group_id', '=', groupId as string))
    .execute();
}

/** Takes the import's lease for `owner` (in the transaction that inserts the document). */
export async function insertImport(db: Db, documentId: string, owner: string, at: string): Promise<void> {
  await db.insertInto('fie_imports').values({ document_id: documentId, owner, heartbeat_at: at }).execute();
}

/** The owner is still importing these documents. */
export async function renewImports(db: Db, owner: string, documentIds: readonly string[], at: string): Promise<void> {
  for (const chunk of chunks(documentIds, LIST_CHUNK)) {
    await db.updateTable('fie_imports').set({ heartbeat_at: at }).where('owner', '=', owner).where('document_id', 'in', chunk).execute();
  }
}

/** The import's lease given back (its document is whole, or removed). */
export async function deleteImport(db: Db, documentId: string): Promise<void> {
  await db.deleteFrom('fie_imports').where('document_id', '=', documentId).execute();
}

/**
 * Adds one document's entries, in order, from `position` on. An entry the firm already has (same key)
 * is linked, not stored again; one this document already links (the same entry twice in a file) is
 * skipped. Returns how many were linked from earlier documents, and the registration days seen.
 */
export class DocumentEntryWriter {
  /** Entries the document links so far (an entry repeated within it counts once). */
  position = 0;
  private readonly linkedHere = new Set<string>();
  linkedFromEarlier = 0;
  /** Entries written, repeats included. */
  entries = 0;
  /** The earliest registration day (field 100) of the entries written. */
  firstRegistrationDate: string | null = null;

  constructor(
    private readonly db: Db,
    private readonly groupId: string,
    private readonly documentId: string,
    private readonly createdAt: string,
    /** The turn of the event loop taken between a batch's statements (an import's ImportPace counts what others ran in it). */
    private readonly turn: () => Promise<unknown> = nextTurn,
  ) {}

  /** A writer that goes on after the entries the document links already (a page appended to it). */
  static async resume(db: Db, groupId: string, documentId: string, createdAt: string): Promise<DocumentEntryWriter> {
    const writer = new DocumentEntryWriter(db, groupId, documentId, createdAt);
    const linked = await db.selectFrom('fie_document_entries').select(['entry_id', 'position']).where('document_id', '=', documentId).execute();
    for (const row of linked) {
      writer.linkedHere.add(row.entry_id);
      writer.position = Math.max(writer.position, row.position + 1);
    }
    return writer;
  }

  /** `db`: the transaction this batch is written in (an upload writes each batch in its own). */
  async write(facts: readonly EntryFacts[], db: Db = this.db): Promise<void> {
    const keys = [...new Set(facts.map((fact) => fact.entry_key))];
    const before = await this.idsByKey(db, keys);
    const fresh = new Map<string, (typeof facts)[number]>();
    for (const fact of facts) if (!before.has(fact.entry_key) && !fresh.has(fact.entry_key)) fresh.set(fact.entry_key, fact);
    for (const chunk of chunks([...fresh.values()], INSERT_CHUNK)) {
      // SQLite's driver is synchronous: a turn of the event loop between statements, so that a batch of
      // hundreds of rows is several short tasks (other requests answer between them) rather than one long one.
      await this.turn();
      await db
        .insertInto('fie_entries')
        .values(chunk.map((fact) => ({ ...fact, id: timeOrderedId(), group_id: this.groupId, a3_state: initialA3State(fact.type), a3_error: null, a3_synced_at: null, a3_run_id: null, created_at: this.createdAt, is_current: 1 })))
        // Another upload may have stored the same entry meanwhile: it is linked below all the same.
        .onConflict((conflict) => conflict.columns(['group_id', 'entry_key']).doNothing())
        .execute();
    }
    // A new state of a parte the firm has (a later confirmation of a baja) takes over from the one before.
    await refreshPartes(db, this.groupId, [...fresh.values()].map((fact) => fact.parte_key));
    const ids = fresh.size > 0 ? new Map([...before, ...(await this.idsByKey(db, [...fresh.keys()]))]) : before;
    const links: { document_id: string; entry_id: string; position: number }[] = [];
    for (const fact of facts) {
      this.entries += 1;
      const registered = fact.registration_date;
      if (registered !== null && (this.firstRegistrationDate === null || registered < this.firstRegistrationDate)) this.firstRegistrationDate = registered;
      const id = ids.get(fact.entry_key);
      if (id === undefined || this.linkedHere.has(id)) continue;
      this.linkedHere.add(id);
      if (before.has(fact.entry_key)) this.linkedFromEarlier += 1;
      links.push({ document_id: this.documentId, entry_id: id, position: this.position });
      this.position += 1;
    }
    for (const chunk of chunks(links, INSERT_CHUNK * 2)) {
      await this.turn();
      await db.insertInto('fie_document_entries').values(chunk).execute();
    }
  }

  private async idsByKey(db: Db, keys: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (const chunk of chunks(keys, LIST_CHUNK)) {
      const rows = await db.selectFrom('fie_entries').select(['id', 'entry_key']).where('group_id', '=', this.groupId).where('entry_key', 'in', chunk).execute();
      for (const row of rows) found.set(row.entry_key, row.id);
    }
    return found;
  }
}

/** Removes a document's links; answers the entries it linked (see deleteOrphanEntries). */
export async function unlinkDocumentEntries(db: Db, documentId: string): Promise<string[]> {
  const linked = await db.selectFrom('fie_document_entries').select('entry_id').where('document_id', '=', documentId).execute();
  await db.deleteFrom('fie_document_entries').where('document_id', '=', documentId).execute();
  return linked.map((row) => row.entry_id);
}

/** Deletes those of these entries that no document links any more (a parte whose newest state goes has the one before back). */
export async function deleteOrphanEntries(db: Db, groupId: string, entryIds: readonly string[]): Promise<void> {
  const partes = new Set<string | null>();
  for (const chunk of chunks(entryIds, LIST_CHUNK)) {
    const states = await db.selectFrom('fie_entries').select('parte_key').where('group_id', '=', groupId).where('id', 'in', chunk).where('parte_key', 'is not', null).execute();
    for (const state of states) partes.add(state.parte_key);
    await db
      .deleteFrom('fie_entries')
      .where('group_id', '=', groupId)
      .where('id', 'in', chunk)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('fie_document_entries as de').select('de.entry_id').whereRef('de.entry_id', '=', 'fie_entries.id'))))
      .execute();
  }
  await refreshPartes(db, groupId, partes);
}

/** The firm's documents, newest first. */
export async function listDocuments(db: Db, groupId: string): Promise<DocumentRow[]> {
  return db.selectFrom('fie_documents').selectAll().where('group_id', '=', groupId).where('importing', '=', 0).orderBy('date', 'desc').orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

export type LinkedEntryRow = EntryRow & { document_id: string; fields_json?: string };

/** The entries of the firm's documents that match the list's filters, by document and position. */
export async function listLinkedEntries(db: Db, groupId: string, query: FieListQuery, documentId?: string): Promise<LinkedEntryRow[]> {
  let select = db
    .selectFrom('fie_document_entries as de')
    .innerJoin('fie_entries as e', 'e.id', 'de.entry_id')
    .innerJoin('fie_documents as d', 'd.id', 'de.document_id')
    .select([...ENTRY_COLUMNS, 'de.document_id'])
    // One document's entries come with their fields (its detail); the list's never do.
    .$if(documentId !== undefined, (qb) => qb.select('e.fields_json'))
    .where('d.group_id', '=', groupId)
    .where('d.importing', '=', 0)
    .where('e.group_id', '=', groupId);
  // A document's own entries all; the list a parte once, in its newest state (issue 43, 4).
  if (documentId !== undefined) select = select.where('de.document_id', '=', documentId);
  else select = select.where('e.is_current', '=', 1);
  for (const condition of listFilterConditions(query)) select = select.where(condition);
  return select.orderBy('de.document_id').orderBy('de.position').execute();
}

/** The firm's entries of these ids (any missing: not the firm's, or gone). */
type SelectedEntryRow = EntryRow & { fields_json: string; first_document_id: string | null; first_document_name: string | null };

export async function entriesByIds(db: Db, groupId: string, ids: readonly string[]): Promise<SelectedEntryRow[]> {
  const rows: SelectedEntryRow[] = [];
  for (const [index, chunk] of chunks([...new Set(ids)], LIST_CHUNK).entries()) {
    // SQLite's driver is synchronous: without a turn of the event loop between chunks, 20,000 ids would
    // be one 100+ ms task that every other request waits behind (issue 39, 2).
    if (index > 0) await nextTurn();
    const found = await db
      .selectFrom('fie_entries as e')
      .select([
        ...ENTRY_COLUMNS,
        'e.fields_json',
        // The document that brought the entry first (the earliest file date): its fieId.
        (eb) =>
          eb
            .selectFrom('fie_document_entries as de')
            .innerJoin('fie_documents as d', 'd.id', 'de.document_id')
            .select('d.id')
            .whereRef('de.entry_id', '=', 'e.id')
            .orderBy('d.date')
            .orderBy('d.created_at')
            .orderBy('d.id')
            .limit(1)
            .as('first_document_id'),
        // And its file's name: what the export's 'Archivo' shows (issue 43, 8).
        (eb) =>
          eb
            .selectFrom('fie_document_entries as de')
            .innerJoin('fie_documents as d', 'd.id', 'de.document_id')
            .select('d.file_name')
            .whereRef('de.entry_id', '=', 'e.id')
            .orderBy('d.date')
            .orderBy('d.created_at')
            .orderBy('d.id')
            .limit(1)
            .as('first_document_name'),
      ])
      .where('e.group_id', '=', groupId)
      .where('e.id', 'in', chunk)
      .execute();
    rows.push(...found);
  }
  return rows;
}

/** The id of each of these partes' newest state. */
export async function currentStateIds(db: Db, groupId: string, parteKeys: readonly string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const chunk of chunks([...new Set(parteKeys)], LIST_CHUNK)) {
    const rows = await db.selectFrom('fie_entries').select(['id', 'parte_key']).where('group_id', '=', groupId).where('parte_key', 'in', chunk).where('is_current', '=', 1).execute();
    for (const row of rows) found.set(row.parte_key as string, row.id);
  }
  return found;
}

/** Every entry of the firm that names a worker, for the reconciliation. */
export async function workerEntries(db: Db, groupId: string) {
  return db
    .selectFrom('fie_entries')
    .select(['id', 'nif', 'fullname', 'sort_name', 'company_name', 'ccc', 'type', 'leave_start', 'leave_end', 'entry_date', 'registration_date', 'canceled', 'a3_state', 'created_at'])
    .where('group_id', '=', groupId)
    .where('nif', 'is not', null)
    .where('is_current', '=', 1)
    .execute();
}
