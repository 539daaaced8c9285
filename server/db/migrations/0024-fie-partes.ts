import { sql, type Kysely } from 'kysely';

/**
 * Issue 43 (4): a baja the INSS resends in a later file as a new confirmation (cit, 1520 its date and
 * 1530 its number) was stored as a second entry with the same facts, listed, exported and counted twice.
 * Each entry now names the parte it is a state of (parte_key: 'it|<nif>|<ccc>|<leave start>' for a baja
 * and its confirmations, as server/modules/fie/partes.ts parteKeyOf writes it), its confirmation's
 * date and number, and whether it is the parte's newest state (is_current). Existing rows are filled
 * in here: the duplicates stored before become earlier states of one parte, and the newest state of a
 * parte A3 already had (nothing A3 holds changed) is synced as it was.
 */

interface EntryRow {
  id: string;
  group_id: string;
  parte_key: string | null;
  fields_json: string;
  registration_date: string | null;
  created_at: string;
  a3_state: string;
  a3_synced_at: string | null;
  a3_run_id: string | null;
  incidence_code: number | null;
  leave_start: string | null;
  leave_end: string | null;
  canceled: number;
}

/** A stored field's text: fields_json keeps a catalogue field as its text, anything else whole. */
function fieldText(fields: Record<string, unknown>, code: string): string | null {
  const stored = fields[code];
  const value = typeof stored === 'string' ? stored : typeof stored === 'object' && stored !== null ? (stored as { value?: unknown }).value : undefined;
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** 'yyyymmdd' as an ISO day; null when absent or not a date. */
function isoDay(text: string | null): string | null {
  const match = text === null ? null : /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  return match && text !== '00000000' ? `${match[1]}-${match[2]}-${match[3]}` : null;
}

interface State extends EntryRow {
  confirmation_date: string | null;
  confirmation_number: number | null;
}

/** partes.ts newestStateFirst. */
function newestFirst(a: State, b: State): number {
  return (
    (b.confirmation_date ?? '').localeCompare(a.confirmation_date ?? '') ||
    (b.confirmation_number ?? -1) - (a.confirmation_number ?? -1) ||
    (b.registration_date ?? '').localeCompare(a.registration_date ?? '') ||
    b.created_at.localeCompare(a.created_at) ||
    b.id.localeCompare(a.id)
  );
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('fie_entries').addColumn('parte_key', 'text').execute();
  await db.schema.alterTable('fie_entries').addColumn('confirmation_date', 'text').execute();
  await db.schema.alterTable('fie_entries').addColumn('confirmation_number', 'integer').execute();
  await db.schema.alterTable('fie_entries').addColumn('is_current', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.createIndex('fie_entries_group_parte_idx').on('fie_entries').columns(['group_id', 'parte_key']).execute();
  await db.schema.createIndex('fie_entries_group_current_idx').on('fie_entries').columns(['group_id', 'is_current']).execute();

  await sql`update fie_entries set parte_key = 'it|' || nif || '|' || coalesce(ccc, '') || '|' || leave_start
    where type in ('baja', 'cit') and nif is not null and leave_start is not null`.execute(db);

  const rows = (
    await sql<EntryRow>`select id, group_id, parte_key, fields_json, registration_date, created_at, a3_state, a3_synced_at, a3_run_id,
      incidence_code, leave_start, leave_end, canceled from fie_entries where parte_key is not null`.execute(db)
  ).rows;
  const partes = new Map<string, State[]>();
  for (const row of rows) {
    const fields = JSON.parse(row.fields_json) as Record<string, unknown>;
    const number = fieldText(fields, '1530');
    const state: State = { ...row, confirmation_date: isoDay(fieldText(fields, '1520')), confirmation_number: number !== null && /^\d+$/.test(number) ? Number(number) : null };
    if (state.confirmation_date !== null || state.confirmation_number !== null) {
      await sql`update fie_entries set confirmation_date = ${state.confirmation_date}, confirmation_number = ${state.confirmation_number} where id = ${row.id}`.execute(db);
    }
    const key = `${row.group_id}\u0000${row.parte_key}`;
    const list = partes.get(key);
    if (list) list.push(state);
    else partes.set(key, [state]);
  }
  for (const states of partes.values()) {
    if (states.length < 2) continue;
    states.sort(newestFirst);
    const [head, ...earlier] = states as [State, ...State[]];
    const synced = earlier.find((row) => row.a3_state === 'synced');
    const sameForA3 = (row: State) =>
      row.incidence_code === head.incidence_code && row.leave_start === head.leave_start && row.leave_end === head.leave_end && row.canceled === head.canceled;
    if (head.a3_state === 'pending' && synced && sameForA3(synced)) {
      await sql`update fie_entries set a3_state = 'synced', a3_synced_at = ${synced.a3_synced_at}, a3_run_id = ${synced.a3_run_id} where id = ${head.id}`.execute(db);
    }
    for (const row of earlier) await sql`update fie_entries set is_current = 0 where id = ${row.id}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('fie_entries_group_current_idx').execute();
  await db.schema.dropIndex('fie_entries_group_parte_idx').execute();
  for (const column of ['is_current', 'confirmation_number', 'confirmation_date', 'parte_key']) await db.schema.alterTable('fie_entries').dropColumn(column).execute();
}
