import type { Kysely } from 'kysely';
import { toA3SyncRecord } from '#shared/a3/sync-record.ts';
import { incidenciasWorkbook } from '#shared/a3/incidences-sheet.ts';
import type { ReconciliationRow } from '#shared/api/fie.ts';
import type { A3SyncRecordWithEntry } from '#shared/bridge/contract.ts';
import { daysBetween } from '#shared/fie/dates.ts';
import { isFieTypeDisabled } from '#shared/fie/labels.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { entryOf, parseFields } from './entries.ts';
import { A3_REFUSED_MESSAGE, CANCELED_ENTRIES_MESSAGE, disabledEntriesMessage, FIE_ENTRIES_NOT_FOUND_MESSAGE } from './messages.ts';
import { isoDay } from './service.ts';
import { currentStateIds, entriesByIds, workerEntries } from './store.ts';

/** One collator for every comparison: localeCompare with a locale builds one per call (8,000 rows: most of the time). */
const SPANISH = new Intl.Collator('es');

/**
 * The FIE entries' way into A3, within one firm: the sync records and the incidences workbook of the
 * selected entries, what the A3 import answered per entry, and the reconciliation of open bajas with A3.
 * The documents and their imports are FieService's (service.ts).
 */
export class FieA3 {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date,
  ) {}

  /**
   * The caller's entries of these ids, all of them, or a 404; each parte once, in its newest state (an
   * earlier state of a parte selected stands for the parte: issue 43, 4).
   */
  private async ownEntries(groupId: string, ids: readonly string[]) {
    const rows = await entriesByIds(this.db, groupId, ids);
    if (rows.length !== new Set(ids).size) throw new HttpError(404, 'FIE_ENTRY_NOT_FOUND', FIE_ENTRIES_NOT_FOUND_MESSAGE);
    const byId = new Map(rows.map((row) => [row.id, row]));
    const earlier = rows.filter((row) => row.is_current === 0 && row.parte_key !== null).map((row) => row.parte_key as string);
    const heads = earlier.length > 0 ? await currentStateIds(this.db, groupId, earlier) : new Map<string, string>();
    const missing = [...heads.values()].filter((id) => !byId.has(id));
    for (const row of missing.length > 0 ? await entriesByIds(this.db, groupId, missing) : []) byId.set(row.id, row);
    const chosen = new Set<string>();
    for (const id of new Set(ids)) {
      const row = byId.get(id) as (typeof rows)[number];
      chosen.add(row.is_current === 0 && row.parte_key !== null ? (heads.get(row.parte_key) ?? id) : id);
    }
    const own = [...chosen].map((id) => byId.get(id) as (typeof rows)[number]);
    if (own.some((row) => row.canceled === 1)) throw new HttpError(400, 'FIE_ENTRY_CANCELED', CANCELED_ENTRIES_MESSAGE);
    return own;
  }

  async a3Records(groupId: string, entryIds: readonly string[]): Promise<A3SyncRecordWithEntry[]> {
    const rows = await this.ownEntries(groupId, entryIds);
    const disabled = [...new Set(rows.filter((row) => isFieTypeDisabled(row.type)).map((row) => row.type))];
    if (disabled.length > 0) throw new HttpError(400, 'FIE_TYPE_NOT_SYNCED', disabledEntriesMessage(disabled));
    return rows.map((row) => ({ ...toA3SyncRecord(entryOf(parseFields(row.fields_json)), { fieId: row.first_document_id }), entryId: row.id }));
  }

  /**
   * The A3 incidences workbook of these entries (the robot's 'Incidencias' columns: the worker's name,
   * carencia as the FIE says it, dates as date cells); 'Archivo' names the file that brought the entry
   * first (its id only for a document made through the API, which has none).
   */
  async exportA3(groupId: string, entryIds: readonly string[]): Promise<Uint8Array> {
    const rows = await this.ownEntries(groupId, entryIds);
    return incidenciasWorkbook(
      rows.map((row) => {
        const entry = entryOf(parseFields(row.fields_json));
        return { record: toA3SyncRecord(entry, { fieId: row.first_document_name ?? row.first_document_id }), entry };
      }),
    );
  }

  /** What the A3 import answered per entry; entries of another firm are not touched (nor counted). */
  async a3Results(groupId: string, body: { runId?: string; results: { entryId: string; state: 'synced' | 'error'; error: string | null }[] }): Promise<number> {
    const at = this.now().toISOString();
    const runId = body.runId ?? null;
    // The last answer about an entry wins; the synced ones go in a few statements, each refusal with its own text.
    const answers = new Map(body.results.map((result) => [result.entryId, result]));
    const synced = [...answers.values()].filter((result) => result.state === 'synced').map((result) => result.entryId);
    const refused = [...answers.values()].filter((result) => result.state === 'error');
    return this.db.transaction().execute(async (trx) => {
      // A disabled type is never sent, so no answer about one is taken.
      const owned = trx.updateTable('fie_entries').where('group_id', '=', groupId).where('a3_state', '!=', 'excluded');
      let updated = 0;
      for (let start = 0; start < synced.length; start += 500) {
        const chunk = synced.slice(start, start + 500);
        const outcome = await owned.set({ a3_state: 'synced', a3_error: null, a3_synced_at: at, a3_run_id: runId }).where('id', 'in', chunk).executeTakeFirst();
        updated += Number(outcome.numUpdatedRows);
      }
      for (const result of refused) {
        const outcome = await owned
          .set({ a3_state: 'error', a3_error: result.error ?? A3_REFUSED_MESSAGE, a3_run_id: runId })
          .where('id', '=', result.entryId)
          .executeTakeFirst();
        updated += Number(outcome.numUpdatedRows);
      }
      return updated;
    });
  }

  /**
   * Workers whose newest non-cancelled entry is an open baja (baja, dip or cit with no alta date): the
   * leave A3 must have. A worker is a person in one company (NIF and CCC): one with two employers
   * (pluriempleo) has a row for each. pendingEntries counts that worker's entries not in A3 yet
   * (pending or refused; the disabled types are never sent, so they are not counted), each parte once.
   * Sorted by surname (sortName), as the screen first shows them.
   */
  async reconciliation(groupId: string): Promise<ReconciliationRow[]> {
    const rows = await workerEntries(this.db, groupId);
    const byWorker = new Map<string, typeof rows>();
    for (const row of rows) {
      const key = `${row.nif as string}|${row.ccc ?? ''}`;
      const list = byWorker.get(key);
      if (list) list.push(row);
      else byWorker.set(key, [row]);
    }
    const today = isoDay(this.now());
    const open: ReconciliationRow[] = [];
    for (const entries of byWorker.values()) {
      let newest: (typeof rows)[number] | undefined;
      for (const entry of entries) {
        if (entry.canceled !== 0) continue;
        if (
          !newest ||
          ((entry.entry_date ?? '').localeCompare(newest.entry_date ?? '') ||
            (entry.registration_date ?? '').localeCompare(newest.registration_date ?? '') ||
            entry.created_at.localeCompare(newest.created_at)) > 0
        ) {
          newest = entry;
        }
      }
      if (!newest || !['baja', 'dip', 'cit'].includes(newest.type) || newest.leave_end !== null) continue;
      open.push({
        nif: newest.nif as string,
        fullname: newest.fullname,
        sortName: newest.sort_name || newest.fullname,
        companyName: newest.company_name,
        ccc: newest.ccc,
        entryId: newest.id,
        leaveStart: newest.leave_start,
        daysOpen: newest.leave_start === null ? null : Math.max(0, daysBetween(newest.leave_start, today) + 1),
        a3sync: newest.a3_state,
        pendingEntries: entries.filter((entry) => entry.a3_state === 'pending' || entry.a3_state === 'error').length,
      });
    }
    const { compare } = SPANISH;
    return open.sort((a, b) => compare(a.sortName, b.sortName) || compare(a.companyName ?? '', b.companyName ?? '') || compare(a.entryId, b.entryId));
  }

}
