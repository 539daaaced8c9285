import { z } from 'zod/mini';

/**
 * The FIE module's API (spec §7 FIE, §3 FIE document/entry, A3 sync record). Documents and entries
 * belong to the caller's firm (group); another firm's document answers 404. A signed-in session or a
 * linked device's token (the desktop's SILTRA fetch and A3 sync) may call every path.
 */
export const fiePaths = {
  /**
   * GET ?select=date -> { items: FieDocumentDate[] }; GET with the list's filters and `limit` ->
   * FieListPage: one page of the matching entries (issue 43, 6), what the web app asks for. Without
   * `limit` -> { items: FieDocumentView[] }, every document newest first with all its matching entries
   * (documents with none left out): what the desktop's A3 sync reads (`?a3=pending`, every pending entry).
   * GET ?select=ids with the filters -> FieMatchingIds: 'select every match' across pages.
   * POST { entries, date } -> { _id, entries } (201). PATCH and PUT { _id, entries } replace the
   * document's entries -> FieDocumentView. Entries go in pages (FIE_ENTRIES_PER_PAGE, FIE_ENTRIES_BODY_LIMIT):
   * the first with POST (or PATCH/PUT), the rest appended with POST `entries`.
   */
  fie: '/api/fie',
  /** POST { entries } -> { _id, entryCount }: one more page of entries appended to the document (after the ones it has). */
  entries: '/api/fie/:id/entries',
  /** GET -> FieDocumentDetail (every field of every entry); DELETE -> 204 (the document and the entries no other document links). */
  document: '/api/fie/:id',
  /**
   * POST multipart/form-data, one or many files in field `files` -> FieUploadResponse (200 even when every
   * file failed). ?source=siltra|fier: where the desktop fetched them (otherwise a user's upload).
   */
  upload: '/api/fie/upload',
  /** POST { entryIds } -> the A3 incidences workbook (.xlsx, the robot's columns) of those entries. */
  exportA3: '/api/fie/export',
  /** POST { entryIds } -> { records: A3SyncRecordWithEntry[] }: RunFieRobot's input-dataTable. */
  a3Records: '/api/fie/a3-records',
  /** POST { runId?, results: [{ entryId, state, error }] } -> { updated }: what the A3 import answered per entry. */
  a3Results: '/api/fie/a3-results',
  /** GET -> { items: ReconciliationRow[] }: open bajas per worker (NIF and CCC: pluriempleo apart), by surname, and whether A3 has them. */
  reconciliation: '/api/fie/reconciliation',
} as const;

export const FIE_ENTRY_TYPES = ['alta', 'baja', 'dip', 'cit', 'dop', 'nac', 'jub'] as const;
/** pending: not sent yet; synced: A3 took it; error: A3 refused it (see a3Error); excluded: a disabled type, never sent. */
export const A3_SYNC_STATES = ['pending', 'synced', 'error', 'excluded'] as const;
export type A3SyncState = (typeof A3_SYNC_STATES)[number];

/** Entries per page of the list (GET fie with `limit`): what the web app asks for, and the most it may. */
export const FIE_LIST_PAGE = 500;
export const FIE_LIST_MAX_PAGE = 2_000;

/** Uploads per request and bytes per file: a year of one firm's FIE files fits, a disk does not. */
export const FIE_UPLOAD_MAX_FILES = 50;
export const FIE_UPLOAD_MAX_FILE_BYTES = 64 * 1024 * 1024;
/** Entry ids per export/sync selection (FIE_SELECTION_BODY_LIMIT). */
export const FIE_MAX_ENTRIES_PER_REQUEST = 20_000;
/**
 * Issue 39 (2): a JSON body is parsed and validated on the server's only thread, so none is big.
 * Entries go in pages of at most FIE_ENTRIES_PER_PAGE entries and FIE_ENTRIES_BODY_LIMIT bytes (a
 * file's entry is 1-3 KB as fields), A3's answers in pages of FIE_RESULTS_PER_PAGE and
 * FIE_RESULTS_BODY_LIMIT bytes (shared/api/pages.ts splits a list so); a selection of 20,000 ids
 * of up to 64 characters fits FIE_SELECTION_BODY_LIMIT.
 */
export const FIE_ENTRIES_PER_PAGE = 100;
export const FIE_ENTRIES_BODY_LIMIT = 256 * 1024;
export const FIE_RESULTS_PER_PAGE = 1_000;
export const FIE_RESULTS_BODY_LIMIT = 512 * 1024;
export const FIE_SELECTION_BODY_LIMIT = 1_400_000;

const isoDay = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'La fecha debe tener el formato aaaa-mm-dd'));
const id = z.string().check(z.minLength(1), z.maxLength(64));

/** One field of an entry as the API carries it (spec §3 FIE entry: label, value, normalizedValue, section, ref). */
export const fieFieldSchema = z.object({
  label: z.optional(z.string().check(z.maxLength(200))),
  value: z.string().check(z.maxLength(400)),
  normalizedValue: z.optional(z.union([z.string(), z.number(), z.boolean(), z.null()])),
  section: z.optional(z.string().check(z.maxLength(8))),
  ref: z.optional(z.string().check(z.maxLength(100))),
});
/** An entry keyed by numeric field code ('310', '670', ...). */
export const fieEntryFieldsSchema = z.record(z.string().check(z.regex(/^\d{3,4}$/, 'Código de campo FIE no válido')), fieFieldSchema);
export type FieEntryFieldsBody = z.infer<typeof fieEntryFieldsSchema>;

export const fieUploadQuerySchema = z.object({ source: z.optional(z.enum(['siltra', 'fier'])) });

const entriesPage = z.array(fieEntryFieldsSchema).check(
  z.minLength(1, 'El FIE no tiene partes'),
  z.maxLength(FIE_ENTRIES_PER_PAGE, `Envía los partes en páginas de ${FIE_ENTRIES_PER_PAGE} como máximo (las siguientes, con POST /api/fie/{id}/entries)`),
);

export const fieCreateRequestSchema = z.strictObject({
  entries: entriesPage,
  /** The document's date (registration day), ISO. */
  date: isoDay,
});
export const fieUpdateRequestSchema = z.strictObject({
  _id: id,
  entries: entriesPage,
});
export const fieAppendRequestSchema = z.strictObject({ entries: entriesPage });
export const fieAppendResponseSchema = z.object({ _id: z.string(), entryCount: z.number() });

/** The list's filters (all optional; combined with AND). */
export const fieListQuerySchema = z.object({
  /** date: only the documents' dates; ids: the ids of the partes that match and can be chosen for A3 (FieMatchingIds). */
  select: z.optional(z.enum(['date', 'ids'])),
  /** Name, NIF or company, accents and case ignored. */
  q: z.optional(z.string().check(z.trim(), z.maxLength(100))),
  /** Comma-separated entry types. */
  type: z.optional(z.string().check(z.regex(/^(alta|baja|dip|cit|dop|nac|jub)(,(alta|baja|dip|cit|dop|nac|jub))*$/, 'Tipo de parte no válido'))),
  /** Inclusive days on the entry's date (leave start 1020, else registration 100). */
  from: z.optional(isoDay),
  to: z.optional(isoDay),
  a3: z.optional(z.enum(A3_SYNC_STATES)),
  /** Entries per page: with it the answer is a FieListPage (issue 43, 6); without, the whole list. */
  limit: z.optional(z.coerce.number().check(z.int('El tamaño de página debe ser un número entero'), z.gte(1, 'El tamaño de página debe ser 1 o más'), z.lte(FIE_LIST_MAX_PAGE, `Pide ${FIE_LIST_MAX_PAGE} partes por página como máximo`))),
  /** Entries of the list to skip (listed in order: documents newest first, each's entries in file order). */
  offset: z.optional(z.coerce.number().check(z.int('El desplazamiento debe ser un número entero'), z.gte(0, 'El desplazamiento no puede ser negativo'))),
});
export type FieListQuery = z.infer<typeof fieListQuerySchema>;

/** An entry as the list shows it: derived facts, no raw fields. */
export const fieEntryViewSchema = z.object({
  _id: z.string(),
  fieId: z.string(),
  type: z.enum(FIE_ENTRY_TYPES),
  typeLabel: z.string(),
  /** dop, nac, jub: shown, never selected or synced. */
  disabled: z.boolean(),
  fullname: z.string(),
  nif: z.nullable(z.string()),
  companyName: z.nullable(z.string()),
  ccc: z.nullable(z.string()),
  /** 'PP/NNNNNNN/DD'. */
  formattedCcc: z.nullable(z.string()),
  /** ISO days. */
  registrationDate: z.nullable(z.string()),
  leaveStart: z.nullable(z.string()),
  leaveEnd: z.nullable(z.string()),
  duration: z.nullable(z.number()),
  shortDuration: z.boolean(),
  isCanceled: z.boolean(),
  /** In words from the lookup table, '[[ Tabla no encontrada ]]' for an unknown code, null when absent. */
  contingency: z.nullable(z.string()),
  /** The A3 incident code and its words, null when the entry carries none. */
  incidence: z.nullable(z.object({ code: z.number(), label: z.string() })),
  a3sync: z.enum(A3_SYNC_STATES),
  a3SyncedAt: z.nullable(z.string()),
  /** The newest error-level log line naming the worker's NIF (spec §8), null when none. */
  lastError: z.nullable(z.string()),
  /**
   * Issue 43 (4): a baja the INSS confirmed again in later files is one parte shown in its newest state;
   * these are its confirmations (1530 number, 1520 ISO day), the latest first; empty when it has none.
   */
  confirmations: z.array(z.object({ number: z.nullable(z.number()), date: z.nullable(z.string()) })),
});
export type FieEntryView = z.infer<typeof fieEntryViewSchema>;

export const fieDocumentViewSchema = z.object({
  _id: z.string(),
  /** ISO day: the first registration date, else the upload day. */
  date: z.string(),
  /** dd/mm/yyyy, or 'first • last' when the entries span several registration dates. */
  registryDate: z.nullable(z.string()),
  /** The uploaded file's name; null for a document created through POST fie. */
  fileName: z.nullable(z.string()),
  source: z.enum(['text', 'excel', 'api', 'siltra', 'fier']),
  version: z.nullable(z.enum(['FIE3', 'FIE4'])),
  createdAt: z.string(),
  /** Every entry of the document, whatever the filters. */
  entryCount: z.number(),
  entries: z.array(fieEntryViewSchema),
});
export type FieDocumentView = z.infer<typeof fieDocumentViewSchema>;
export const fieListResponseSchema = z.object({ items: z.array(fieDocumentViewSchema) });

/** A document as the paged list heads it: its facts and how many of its entries match the filters. */
export const fieDocumentSummarySchema = z.object({
  ...z.omit(fieDocumentViewSchema, { entries: true }).shape,
  /** Its entries that match the filters (all its listed entries without filters). */
  matches: z.number(),
});
export type FieDocumentSummary = z.infer<typeof fieDocumentSummarySchema>;

/**
 * One page of the list (GET fie with `limit`, issue 43, 6). The list is every matching entry of every
 * document, documents newest first and each one's entries in file order (an entry two files carry is
 * listed under each); a page is `limit` of them from `offset`.
 */
export const fieListPageSchema = z.object({
  /** On the first page (offset 0) only: every document with a matching entry (every document, without filters), in order. */
  documents: z.optional(z.array(fieDocumentSummarySchema)),
  /** This page's entries, in order; each one's fieId is the document it is listed under. */
  entries: z.array(fieEntryViewSchema),
  /** Partes that match: each entry once, however many documents carry it. */
  total: z.number(),
  /** Documents with a matching entry. */
  documentCount: z.number(),
  /** The offset of the next page; null on the last. */
  nextOffset: z.nullable(z.number()),
});
export type FieListPage = z.infer<typeof fieListPageSchema>;
/**
 * GET fie?select=ids (issue 43, 6): the partes that match the filters and can be chosen for A3 (not
 * dop/nac/jub, not anulado), each once, in the list's order; at most FIE_MAX_ENTRIES_PER_REQUEST (the
 * most one export or sync takes), `total` how many there are.
 */
export const fieMatchingIdsSchema = z.object({ ids: z.array(z.string()), total: z.number() });
export type FieMatchingIds = z.infer<typeof fieMatchingIdsSchema>;
export const fieDateListResponseSchema = z.object({ items: z.array(z.object({ _id: z.string(), date: z.string() })) });

export const fieDocumentDetailSchema = z.object({
  ...fieDocumentViewSchema.shape,
  entries: z.array(z.object({ ...fieEntryViewSchema.shape, fields: fieEntryFieldsSchema })),
});
export type FieDocumentDetail = z.infer<typeof fieDocumentDetailSchema>;

export const fieCreateResponseSchema = z.object({ _id: z.string(), entries: z.array(fieEntryFieldsSchema) });

/** What became of one uploaded file (the §8 toast is built from the three counts). */
export const fieUploadResultSchema = z.object({
  fileName: z.string(),
  status: z.enum(['processed', 'failed', 'already-added']),
  /** The stored document (processed) or the one stored before (already-added). */
  documentId: z.nullable(z.string()),
  entries: z.number(),
  /** Entries already stored from an earlier file (the INSS resends), linked rather than doubled. */
  linkedEntries: z.number(),
  /** Why it failed, in Spanish. */
  reason: z.nullable(z.string()),
});
export type FieUploadResult = z.infer<typeof fieUploadResultSchema>;
export const fieUploadResponseSchema = z.object({
  results: z.array(fieUploadResultSchema),
  processed: z.number(),
  failed: z.number(),
  alreadyAdded: z.number(),
});
export type FieUploadResponse = z.infer<typeof fieUploadResponseSchema>;

export const fieEntrySelectionSchema = z.strictObject({
  entryIds: z.array(id).check(z.minLength(1, 'Selecciona al menos un parte'), z.maxLength(FIE_MAX_ENTRIES_PER_REQUEST)),
});

export const a3ResultsRequestSchema = z.strictObject({
  runId: z.optional(id),
  results: z
    .array(z.strictObject({ entryId: id, state: z.enum(['synced', 'error']), error: z.nullable(z.string().check(z.maxLength(1000))) }))
    .check(z.minLength(1), z.maxLength(FIE_RESULTS_PER_PAGE)),
});

export const reconciliationRowSchema = z.object({
  nif: z.string(),
  fullname: z.string(),
  /** 'PEÑA LÓPEZ, MARÍA': surnames first, what the list sorts by. */
  sortName: z.string(),
  companyName: z.nullable(z.string()),
  ccc: z.nullable(z.string()),
  /** The open baja: its entry, start day and days open so far. */
  entryId: z.string(),
  leaveStart: z.nullable(z.string()),
  daysOpen: z.nullable(z.number()),
  a3sync: z.enum(A3_SYNC_STATES),
  /** FIE entries of this worker not yet in A3. */
  pendingEntries: z.number(),
});
export type ReconciliationRow = z.infer<typeof reconciliationRowSchema>;
