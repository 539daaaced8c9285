import type { Kysely } from 'kysely';
import { FIE_ENTRY_TYPES, FIE_MAX_ENTRIES_PER_REQUEST, type FieListQuery, type FieMatchingIds } from '#shared/api/fie.ts';
import { isFieTypeDisabled } from '#shared/fie/labels.ts';
import type { Database } from '../../db/schema.ts';
import { listFilterConditions } from './list-filters.ts';
import { ENTRY_COLUMNS, listDocuments, type DocumentRow, type LinkedEntryRow } from './store.ts';

/**
 * The FIE list a page at a time (issue 43, 6): the list is every matching entry under every document
 * that carries it, documents newest first and each one's entries in file order; the database reads
 * only the page asked for (LIMIT/OFFSET over that order) and counts the rest.
 */

export interface ListPageRows {
  rows: LinkedEntryRow[];
  /** Partes that match, each once however many documents carry it. */
  total: number;
  /** Entries listed (an entry two documents carry counts under each): where the pages end. */
  listed: number;
  /** Matching entries per document id (documents with none absent). */
  matches: Map<string, number>;
}

/** The firm's listed entries that match, joined to their documents (the page and the counts share it). */
function matching(db: Kysely<Database>, groupId: string, query: FieListQuery) {
  let select = db
    .selectFrom('fie_document_entries as de')
    .innerJoin('fie_entries as e', 'e.id', 'de.entry_id')
    .innerJoin('fie_documents as d', 'd.id', 'de.document_id')
    .where('d.group_id', '=', groupId)
    .where('d.importing', '=', 0)
    .where('e.group_id', '=', groupId)
    // A parte once, in its newest state (issue 43, 4).
    .where('e.is_current', '=', 1);
  for (const condition of listFilterConditions(query)) select = select.where(condition);
  return select;
}

export async function listPageRows(db: Kysely<Database>, groupId: string, query: FieListQuery, limit: number, offset: number): Promise<ListPageRows> {
  const rows = await matching(db, groupId, query)
    .select([...ENTRY_COLUMNS, 'de.document_id'])
    .orderBy('d.date', 'desc')
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id', 'desc')
    .orderBy('de.position')
    .limit(limit)
    .offset(offset)
    .execute();
  const perDocument = await matching(db, groupId, query)
    .select((eb) => ['de.document_id', eb.fn.countAll().as('matches')])
    .groupBy('de.document_id')
    .execute();
  const distinct = await matching(db, groupId, query)
    .select((eb) => eb.fn.count('e.id').distinct().as('total'))
    .executeTakeFirst();
  // PostgreSQL answers counts as bigint strings, SQLite as numbers.
  const matches = new Map(perDocument.map((row) => [row.document_id, Number(row.matches)]));
  let listed = 0;
  for (const count of matches.values()) listed += count;
  return { rows, total: Number(distinct?.total ?? 0), listed, matches };
}

/** The documents the list heads, in its order: with filters those with a matching entry, without every one. */
export async function listedDocuments(db: Kysely<Database>, groupId: string, filtered: boolean, matches: ReadonlyMap<string, number>): Promise<DocumentRow[]> {
  const documents = await listDocuments(db, groupId);
  return filtered ? documents.filter((document) => matches.has(document.id)) : documents;
}

/**
 * The partes that match and can be chosen for A3 (not a disabled type, not anulado: the screen's
 * isSelectable), each once, newest first (by the newest document that lists each), at most
 * FIE_MAX_ENTRIES_PER_REQUEST of them: 'select every match' across the pages not loaded.
 */
export async function matchingSelectableIds(db: Kysely<Database>, groupId: string, query: FieListQuery): Promise<FieMatchingIds> {
  const enabled = FIE_ENTRY_TYPES.filter((type) => !isFieTypeDisabled(type));
  const selectable = () => matching(db, groupId, query).where('e.type', 'in', enabled).where('e.canceled', '=', 0);
  // The database orders and cuts (ties by id, the same on both databases): a year of a big firm's
  // partes is never read whole to send back the first 20,000.
  const rows = await selectable()
    .select((eb) => ['e.id', eb.fn.max('d.date').as('date'), eb.fn.max('d.created_at').as('created_at')])
    .groupBy('e.id')
    .orderBy((eb) => eb.fn.max('d.date'), 'desc')
    .orderBy((eb) => eb.fn.max('d.created_at'), 'desc')
    .orderBy('e.id')
    .limit(FIE_MAX_ENTRIES_PER_REQUEST)
    .execute();
  const counted = await selectable()
    .select((eb) => eb.fn.count('e.id').distinct().as('total'))
    .executeTakeFirst();
  // PostgreSQL answers counts as bigint strings, SQLite as numbers.
  return { ids: rows.map((row) => row.id), total: Number(counted?.total ?? 0) };
}
