import { createHash, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type {
  FieDocumentDetail, FieDocumentView, FieEntryFieldsBody, FieListPage, FieListQuery, FieMatchingIds, FieUploadResult,
} from '#shared/api/fie.ts';
import { formatDayMonthYear } from '#shared/fie/dates.ts';
import { filtersEntries } from '#shared/fie/list-filter.ts';
import { fieProcessingError } from '#shared/fie/messages.ts';
import { registryDateOf } from '#shared/fie/registry-date.ts';
import type { FieFields } from '#shared/fie/types.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { FieDecodeFailure, type FieDecoder } from './decoder.ts';
import { entryFacts, entryView, fieldsFromBody, parseFields } from './entries.ts';
import { judgeFieContent, type JudgedFie } from './judge.ts';
import { FIE_NO_ENTRIES_REASON, FIE_NOT_FOUND_MESSAGE, fileTooLargeReason, ignoredFieReason } from './messages.ts';
import { ImportLeases } from './import-leases.ts';
import { ImportPace } from './import-pace.ts';
import { listedDocuments, listPageRows, matchingSelectableIds } from './list-page.ts';
import { confirmationsOf } from './partes.ts';
import {
  deleteDocument, deleteImport, importingDocuments, insertImport, deleteOrphanEntries, DocumentEntryWriter, findDocument, findDocumentByHash, lockDocument, insertDocument, listDocuments,
  listLinkedEntries, unlinkDocumentEntries, type DocumentRow, type LinkedEntryRow,
} from './store.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';

/** Who calls: a signed-in member or a linked device, always within one firm. */
export interface FieCaller {
  groupId: string;
  userId: string;
}

/** An uploaded file once streamed to a temporary file. */
export interface ReceivedFieFile {
  fileName: string;
  path: string;
  /** sha256 hex of its bytes. */
  contentHash: string;
  /** True when it went over FIE_UPLOAD_MAX_FILE_BYTES and was cut. */
  truncated: boolean;
}

export interface FieLog {
  warn(details: Record<string, unknown>, message: string): void;
}

export function fieNotFound(): HttpError {
  return new HttpError(404, 'FIE_NOT_FOUND', FIE_NOT_FOUND_MESSAGE);
}

/** A decode that turned out not to be a FIE: the transaction is rolled back with this. */
class IgnoredFie extends Error {}

/** A document made through the API is never a duplicate of another: its hash is its own id's. */
function apiContentHash(id: string): string {
  return createHash('sha256').update(`api:${id}`, 'utf8').digest('hex');
}

export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function documentView(row: DocumentRow, entries: FieDocumentView['entries']): FieDocumentView {
  return {
    _id: row.id,
    date: row.date,
    registryDate: row.registry_date,
    fileName: row.file_name,
    source: row.source,
    version: row.version,
    createdAt: row.created_at,
    entryCount: row.entry_count,
    entries,
  };
}

/** The FIE module's domain (spec §7 FIE, issue 22): no HTTP here, the routes parse and answer. */
export class FieService {
  private readonly leases: ImportLeases;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date,
    private readonly decoder: FieDecoder,
    private readonly log: FieLog,
  ) {
    this.leases = new ImportLeases(db, now);
  }

  /** The server stops: no more heartbeats for its imports. */
  close(): void {
    this.leases.stop();
  }

  /**
   * Removes the imports whose writer is gone (see ImportLeases), of one firm or, at start, of all, so
   * their files can be sent again at once. Answers how many.
   */
  async removeAbandonedImports(groupId?: string): Promise<number> {
    let removed = 0;
    for (const row of await importingDocuments(this.db, groupId)) {
      if (!this.leases.isAbandoned(row)) continue;
      await this.db.transaction().execute((trx) => deleteDocument(trx, row.group_id, row.id));
      removed += 1;
    }
    return removed;
  }

  async listDates(groupId: string): Promise<{ _id: string; date: string }[]> {
    return (await listDocuments(this.db, groupId)).map((row) => ({ _id: row.id, date: row.date }));
  }

  /** Documents newest first, each with its entries that match; with entry filters, documents with none are left out. */
  async list(groupId: string, query: FieListQuery): Promise<FieDocumentView[]> {
    const [documents, entries] = await Promise.all([listDocuments(this.db, groupId), listLinkedEntries(this.db, groupId, query)]);
    const byDocument = new Map<string, LinkedEntryRow[]>();
    for (const entry of entries) {
      const list = byDocument.get(entry.document_id);
      if (list) list.push(entry);
      else byDocument.set(entry.document_id, [entry]);
    }
    const filtered = filtersEntries(query);
    const confirmations = await confirmationsOf(this.db, groupId, entries.map((entry) => entry.parte_key));
    return documents
      .filter((document) => !filtered || byDocument.has(document.id))
      .map((document) =>
        documentView(document, (byDocument.get(document.id) ?? []).map((entry) => entryView(entry, document.id, confirmations.get(entry.parte_key ?? '')))),
      );
  }

  /**
   * One page of the list (GET fie with `limit`, issue 43, 6): `limit` entries from `offset` in the list's
   * order, what matches counted, and on the first page the documents the list heads.
   */
  async listPage(groupId: string, query: FieListQuery & { limit: number }): Promise<FieListPage> {
    const offset = query.offset ?? 0;
    const { rows, total, listed, matches } = await listPageRows(this.db, groupId, query, query.limit, offset);
    const documents = await listedDocuments(this.db, groupId, filtersEntries(query), matches);
    const confirmations = await confirmationsOf(this.db, groupId, rows.map((row) => row.parte_key));
    const end = offset + rows.length;
    return {
      ...(offset === 0 && {
        documents: documents.map((document) => {
          const { entries: _entries, ...summary } = documentView(document, []);
          return { ...summary, matches: matches.get(document.id) ?? 0 };
        }),
      }),
      entries: rows.map((row) => entryView(row, row.document_id, confirmations.get(row.parte_key ?? ''))),
      total,
      documentCount: documents.length,
      nextOffset: rows.length > 0 && end < listed ? end : null,
    };
  }

  /** GET fie?select=ids: the partes that match and can be chosen for A3, for 'select every match'. */
  async matchingIds(groupId: string, query: FieListQuery): Promise<FieMatchingIds> {
    return matchingSelectableIds(this.db, groupId, query);
  }

  async detail(groupId: string, id: string): Promise<FieDocumentDetail> {
    const document = await findDocument(this.db, groupId, id);
    if (!document) throw fieNotFound();
    const entries = await listLinkedEntries(this.db, groupId, {}, id);
    const confirmations = await confirmationsOf(this.db, groupId, entries.map((entry) => entry.parte_key));
    return {
      ...documentView(document, []),
      entries: entries.map((entry) => ({ ...entryView(entry, id, confirmations.get(entry.parte_key ?? '')), fields: parseFields(entry.fields_json ?? '{}') as FieDocumentDetail['entries'][number]['fields'] })),
    };
  }

  /** POST fie: a document from entries sent as fields; answers them as stored (read again by the server). */
  async create(caller: FieCaller, body: { entries: FieEntryFieldsBody[]; date: string }): Promise<{ _id: string; entries: FieFields[] }> {
    const id = randomUUID();
    const fieldSets = body.entries.map(fieldsFromBody);
    const createdAt = this.now().toISOString();
    await this.db.transaction().execute(async (trx) => {
      await insertDocument(trx, {
        id,
        group_id: caller.groupId,
        content_hash: apiContentHash(id),
        file_name: null,
        source: 'api',
        version: null,
        registry_date: registryDateOf(fieldSets) ?? formatDayMonthYear(body.date),
        date: body.date,
        entry_count: 0,
        created_by: caller.userId,
        created_at: createdAt,
        importing: 0,
      });
      const writer = new DocumentEntryWriter(trx, caller.groupId, id, createdAt);
      await writer.write(fieldSets.map(entryFacts));
      await trx.updateTable('fie_documents').set({ entry_count: writer.position }).where('id', '=', id).execute();
    });
    return { _id: id, entries: fieldSets };
  }

  /** PATCH/PUT fie: the document's entries replaced by these. */
  async update(caller: FieCaller, body: { _id: string; entries: FieEntryFieldsBody[] }): Promise<FieDocumentView> {
    const fieldSets = body.entries.map(fieldsFromBody);
    await this.db.transaction().execute(async (trx) => {
      const document = await lockDocument(trx, caller.groupId, body._id);
      if (!document) throw fieNotFound();
      // Unlinked first and orphans deleted last: an entry kept by the update keeps its id and its A3 state.
      const before = await unlinkDocumentEntries(trx, document.id);
      const writer = new DocumentEntryWriter(trx, caller.groupId, document.id, this.now().toISOString());
      await writer.write(fieldSets.map(entryFacts));
      await deleteOrphanEntries(trx, caller.groupId, before);
      await trx
        .updateTable('fie_documents')
        .set({ entry_count: writer.position, registry_date: registryDateOf(fieldSets) ?? document.registry_date })
        .where('id', '=', document.id)
        .execute();
    });
    // This document's view alone (listing the whole firm to pick one held the event loop as the firm grew).
    const document = await findDocument(this.db, caller.groupId, body._id);
    if (!document) throw fieNotFound();
    const entries = await listLinkedEntries(this.db, caller.groupId, {}, document.id);
    return documentView(document, entries.map((entry) => entryView(entry, document.id)));
  }

  /** POST fie/:id/entries: one more page of entries after the document's own (see DocumentEntryWriter.resume). */
  async append(caller: FieCaller, id: string, entries: FieEntryFieldsBody[]): Promise<{ _id: string; entryCount: number }> {
    const fieldSets = entries.map(fieldsFromBody);
    return this.db.transaction().execute(async (trx) => {
      const document = await lockDocument(trx, caller.groupId, id);
      if (!document) throw fieNotFound();
      const writer = await DocumentEntryWriter.resume(trx, caller.groupId, document.id, this.now().toISOString());
      await writer.write(fieldSets.map(entryFacts));
      const registryDate = registryDateOf(fieldSets);
      await trx
        .updateTable('fie_documents')
        .set({ entry_count: writer.position, ...(document.source === 'api' && registryDate !== null && document.registry_date === null && { registry_date: registryDate }) })
        .where('id', '=', document.id)
        .execute();
      return { _id: document.id, entryCount: writer.position };
    });
  }

  /** DELETE fie/:id: the document and the entries no other document links. */
  async remove(groupId: string, id: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const document = await lockDocument(trx, groupId, id);
      if (!document) throw fieNotFound();
      await deleteDocument(trx, groupId, id);
    });
  }

  /**
   * One uploaded file: stored once per firm (the same bytes again is 'already-added'), judged by its
   * content, decoded in a child process and its entries inserted batch by batch, each batch in a
   * transaction of its own (the document is listed once whole). `fetchedFrom`: SILTRA's folder or FIER,
   * when the desktop fetched the file; else the file's kind (text or excel) is its source.
   */
  async processUpload(caller: FieCaller, file: ReceivedFieFile, fetchedFrom?: 'siltra' | 'fier'): Promise<FieUploadResult> {
    const result = (status: FieUploadResult['status'], fields: Partial<FieUploadResult> = {}): FieUploadResult => ({
      fileName: file.fileName,
      status,
      documentId: null,
      entries: 0,
      linkedEntries: 0,
      reason: null,
      ...fields,
    });
    if (file.truncated) return result('failed', { reason: fileTooLargeReason() });
    // Before the duplicate check: a file whose import a stopped server left half written is not a duplicate.
    await this.removeAbandonedImports(caller.groupId);
    const earlier = await findDocumentByHash(this.db, caller.groupId, file.contentHash);
    if (earlier) return result('already-added', { documentId: earlier.id });

    const judged = await judgeFieContent(file.path);
    const source = judged.kind === 'excel' ? 'spreadsheet' : 'text';
    const fail = (reason: string) => {
      this.log.warn({ fileName: file.fileName, reason }, fieProcessingError(source));
      return result('failed', { reason });
    };
    if (judged.kind === 'refused') return fail(judged.reason);

    const id = randomUUID();
    const createdAt = this.now().toISOString();
    this.leases.begin(id);
    try {
      return await this.importFile(caller, file, id, createdAt, judged, fetchedFrom, result, fail);
    } finally {
      this.leases.end(id);
    }
  }

  private async importFile(
    caller: FieCaller,
    file: ReceivedFieFile,
    id: string,
    createdAt: string,
    judged: Exclude<JudgedFie, { kind: 'refused' }>,
    fetchedFrom: 'siltra' | 'fier' | undefined,
    result: (status: FieUploadResult['status'], fields?: Partial<FieUploadResult>) => FieUploadResult,
    fail: (reason: string) => FieUploadResult,
  ): Promise<FieUploadResult> {
    try {
      // Inserted (importing, not listed) with this process's lease before the slot is awaited: the same
      // file sent twice at once is one import.
      await this.db.transaction().execute(async (trx) => {
        await insertDocument(trx, {
          id,
          group_id: caller.groupId,
          content_hash: file.contentHash,
          file_name: file.fileName,
          source: fetchedFrom ?? judged.kind,
          version: judged.kind === 'text' ? judged.version : null,
          registry_date: null,
          date: isoDay(this.now()),
          entry_count: 0,
          created_by: caller.userId,
          created_at: createdAt,
          importing: 1,
        });
        await insertImport(trx, id, this.leases.owner, createdAt);
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const stored = await findDocumentByHash(this.db, caller.groupId, file.contentHash);
      return result('already-added', { documentId: stored?.id ?? null });
    }
    try {
      // Each batch in a transaction of its own, so a long decode never holds the database (SQLite has one connection).
      const writer = await this.decoder.withSlot(async (decode) => {
        // Inserting runs on the event loop (SQLite's driver is synchronous): the import gives it back to other requests at its pace.
        const pace = new ImportPace();
        const entries = new DocumentEntryWriter(this.db, caller.groupId, id, createdAt, pace.turn);
        const outcome = await decode(file.path, judged.kind, async (batch) => {
          const started = performance.now();
          await this.db.transaction().execute((trx) => entries.write(batch, trx));
          await pace.rest(performance.now() - started);
        });
        if (outcome.ignored) throw new IgnoredFie(ignoredFieReason(outcome.reason ?? 'no es un FIE'));
        // A header and nothing the decoder could read as an entry (e.g. one 60 MB line): not a document.
        if (entries.entries === 0) throw new IgnoredFie(FIE_NO_ENTRIES_REASON);
        await this.db.transaction().execute(async (trx) => {
          await trx
            .updateTable('fie_documents')
            .set({
              importing: 0,
              entry_count: entries.position,
              registry_date: outcome.registryDate,
              date: entries.firstRegistrationDate ?? isoDay(this.now()),
              ...(outcome.version !== null && { version: outcome.version }),
            })
            .where('id', '=', id)
            .execute();
          await deleteImport(trx, id);
        });
        return entries;
      });
      return result('processed', { documentId: id, entries: writer.entries, linkedEntries: writer.linkedFromEarlier });
    } catch (error) {
      await this.db.transaction().execute((trx) => deleteDocument(trx, caller.groupId, id));
      if (error instanceof IgnoredFie || error instanceof FieDecodeFailure) return fail(error.message);
      throw error;
    }
  }
}
