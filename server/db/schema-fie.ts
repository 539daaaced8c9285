/** The FIE module's tables (migration 0013), part of the Database of schema.ts. */

/** A FIE file uploaded (or a document created through the API) by a firm (migration 0013). */
export interface FieDocumentsTable {
  id: string;
  group_id: string;
  /** sha256 hex of the file's bytes: the same file twice in a firm is stored once. */
  content_hash: string;
  file_name: string | null;
  source: 'text' | 'excel' | 'api' | 'siltra' | 'fier';
  version: 'FIE3' | 'FIE4' | null;
  /** dd/mm/yyyy or 'first • last'. */
  registry_date: string | null;
  /** ISO day. */
  date: string;
  entry_count: number;
  created_by: string | null;
  created_at: string;
  /** 1 while an upload is writing its entries: not listed until it is whole. */
  importing: number;
}

/** One FIE entry of a firm, stored once however many documents carry it. */
export interface FieEntriesTable {
  id: string;
  group_id: string;
  /** sha256 hex of the entry's fields (the file date left out). */
  entry_key: string;
  type: 'alta' | 'baja' | 'dip' | 'cit' | 'dop' | 'nac' | 'jub';
  nif: string | null;
  fullname: string;
  company_name: string | null;
  ccc: string | null;
  /** ISO days. */
  registration_date: string | null;
  leave_start: string | null;
  leave_end: string | null;
  entry_date: string | null;
  duration: number | null;
  short_duration: number;
  canceled: number;
  /** 1090 in words. */
  contingency: string | null;
  incidence_code: number | null;
  search_text: string;
  /** JSON of FieFields. */
  fields_json: string;
  a3_state: 'pending' | 'synced' | 'error' | 'excluded';
  a3_error: string | null;
  a3_synced_at: string | null;
  a3_run_id: string | null;
  created_at: string;
  /**
   * The parte this entry is a state of (migration 0024): 'it|<nif>|<ccc>|<leave start>' for a baja or
   * its confirmations (cit); null for the rest, each its own parte. A later confirmation of the same
   * parte is a row of its own (its document links and facts) under the same key.
   */
  parte_key: string | null;
  /** ISO day of the confirmation (1520), and its number (1530); null when the entry is not one. */
  confirmation_date: string | null;
  confirmation_number: number | null;
  /** 1: the parte's newest state (listed, exported, counted); 0: an earlier state of it. */
  is_current: number;
  /** 'PEÑA LÓPEZ, MARÍA': surnames (820, 830), then the name (840); what the reconciliation sorts by (migration 0024-fie-sort-names). */
  sort_name: string;
}

export interface FieDocumentEntriesTable {
  document_id: string;
  entry_id: string;
  position: number;
}

/** The lease of an upload still importing (migration 0018): which server process writes it, and when it last said so. */
export interface FieImportsTable {
  document_id: string;
  /** `<host>:<pid>:<start id>`. */
  owner: string;
  /** ISO time. */
  heartbeat_at: string;
}
