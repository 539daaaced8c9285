import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { FieEntriesTable } from '../../db/schema-fie.ts';

/**
 * Issue 43 (4): one parte, several states. The INSS resends a baja in later files as confirmations
 * (cit: 1520 the confirmation's date, 1530 its number), each a new entry (its fields differ), for the
 * same worker, company account and baja date. Those are one parte: every state is kept as its own row
 * (its document links, so deleting a file gives back the state before), under one parte_key, and only
 * the newest (is_current = 1) is listed, exported, synced and counted.
 */

type Db = Kysely<Database> | Transaction<Database>;
const LIST_CHUNK = 500;

/** The types that are states of an IT leave: the baja and its confirmations. */
const LEAVE_STATES: ReadonlySet<FieEntriesTable['type']> = new Set(['baja', 'cit']);

/**
 * The parte an entry is a state of: a baja or a confirmation of it, by worker, company account and baja
 * date ('it|<nif>|<ccc>|<leave start>'); null for any other entry (or one missing those), its own parte.
 * Migration 0024 writes the same text with SQL: both must stay equal.
 */
export function parteKeyOf(type: FieEntriesTable['type'], nif: string | null, ccc: string | null, leaveStart: string | null): string | null {
  if (!LEAVE_STATES.has(type) || nif === null || leaveStart === null) return null;
  return `it|${nif}|${ccc ?? ''}|${leaveStart}`;
}

/** What orders a parte's states. */
export interface ParteState {
  id: string;
  confirmation_date: string | null;
  confirmation_number: number | null;
  registration_date: string | null;
  created_at: string;
}

/**
 * Newest state first: the latest confirmation (by its date, then its number; the baja itself, with
 * none, is the oldest), then the later registration, then the later upload.
 */
export function newestStateFirst(a: ParteState, b: ParteState): number {
  return (
    (b.confirmation_date ?? '').localeCompare(a.confirmation_date ?? '') ||
    (b.confirmation_number ?? -1) - (a.confirmation_number ?? -1) ||
    (b.registration_date ?? '').localeCompare(a.registration_date ?? '') ||
    b.created_at.localeCompare(a.created_at) ||
    b.id.localeCompare(a.id)
  );
}

type StateRow = ParteState & Pick<FieEntriesTable, 'parte_key' | 'is_current' | 'a3_state' | 'a3_synced_at' | 'a3_run_id' | 'incidence_code' | 'leave_start' | 'leave_end' | 'canceled'>;

/** A newer state that tells A3 nothing new: same incident, same dates, not cancelled since. */
function sameForA3(newer: StateRow, older: StateRow): boolean {
  return newer.incidence_code === older.incidence_code && newer.leave_start === older.leave_start && newer.leave_end === older.leave_end && newer.canceled === older.canceled;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

/**
 * Marks the newest state of each of these partes as current, the others not. A new state that takes
 * over from one A3 already has, and changes nothing A3 holds (a confirmation of an open baja), is
 * synced as the state before it was: the parte is not sent again.
 */
export async function refreshPartes(db: Db, groupId: string, parteKeys: Iterable<string | null>): Promise<void> {
  const keys = [...new Set([...parteKeys].filter((key): key is string => key !== null))];
  for (const chunk of chunks(keys, LIST_CHUNK)) {
    const rows: StateRow[] = await db
      .selectFrom('fie_entries')
      .select(['id', 'parte_key', 'is_current', 'confirmation_date', 'confirmation_number', 'registration_date', 'created_at', 'a3_state', 'a3_synced_at', 'a3_run_id', 'incidence_code', 'leave_start', 'leave_end', 'canceled'])
      .where('group_id', '=', groupId)
      .where('parte_key', 'in', chunk)
      .execute();
    const byParte = new Map<string, StateRow[]>();
    for (const row of rows) {
      const list = byParte.get(row.parte_key as string);
      if (list) list.push(row);
      else byParte.set(row.parte_key as string, [row]);
    }
    const heads: string[] = [];
    const stale: string[] = [];
    for (const states of byParte.values()) {
      states.sort(newestStateFirst);
      const head = states[0] as StateRow;
      heads.push(head.id);
      for (const row of states.slice(1)) if (row.is_current !== 0) stale.push(row.id);
      const before = states.find((row) => row !== head && row.is_current !== 0);
      if (before && head.a3_state === 'pending' && before.a3_state === 'synced' && sameForA3(head, before)) {
        await db
          .updateTable('fie_entries')
          .set({ a3_state: 'synced', a3_synced_at: before.a3_synced_at, a3_run_id: before.a3_run_id })
          .where('id', '=', head.id)
          .execute();
      }
    }
    if (stale.length > 0) await db.updateTable('fie_entries').set({ is_current: 0 }).where('group_id', '=', groupId).where('id', 'in', stale).execute();
    if (heads.length > 0) await db.updateTable('fie_entries').set({ is_current: 1 }).where('group_id', '=', groupId).where('id', 'in', heads).where('is_current', '=', 0).execute();
  }
}

/** One confirmation of a parte as the list shows it. */
export interface ParteConfirmation {
  number: number | null;
  date: string | null;
}

/** Every confirmation of these partes, latest first, by parte key. */
export async function confirmationsOf(db: Db, groupId: string, parteKeys: Iterable<string | null>): Promise<Map<string, ParteConfirmation[]>> {
  const keys = [...new Set([...parteKeys].filter((key): key is string => key !== null))];
  const out = new Map<string, (ParteState & ParteConfirmation)[]>();
  for (const chunk of chunks(keys, LIST_CHUNK)) {
    const rows = await db
      .selectFrom('fie_entries')
      .select(['id', 'parte_key', 'confirmation_date', 'confirmation_number', 'registration_date', 'created_at'])
      .where('group_id', '=', groupId)
      .where('parte_key', 'in', chunk)
      .where((eb) => eb.or([eb('confirmation_number', 'is not', null), eb('confirmation_date', 'is not', null)]))
      .execute();
    for (const row of rows) {
      const state = { ...row, number: row.confirmation_number, date: row.confirmation_date };
      const list = out.get(row.parte_key as string);
      if (list) list.push(state);
      else out.set(row.parte_key as string, [state]);
    }
  }
  return new Map([...out].map(([key, states]) => [key, states.sort(newestStateFirst).map(({ number, date }) => ({ number, date }))]));
}
