import { sql, type Kysely } from 'kysely';

/**
 * Issue 43 (5): the reconciliation lists thousands of workers sorted by surname. Each FIE entry keeps
 * 'SURNAMES, NAME' (820 and 830, then 840) in a column of its own, as server/modules/fie/entries.ts
 * sortName writes it: reading every open baja's stored fields to sort them took most of the answer's
 * time. Existing rows are filled in here from their stored fields. (The FIE part's reserved number,
 * 0024, second migration: it runs after 0024-fie-partes.)
 */

/** A stored field's text: fields_json keeps a catalogue field as its text, anything else whole. */
function fieldText(fields: Record<string, unknown>, code: string): string {
  const stored = fields[code];
  const value = typeof stored === 'string' ? stored : typeof stored === 'object' && stored !== null ? (stored as { value?: unknown }).value : '';
  return typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '';
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('fie_entries').addColumn('sort_name', 'text', (c) => c.notNull().defaultTo('')).execute();
  const rows = (await sql<{ id: string; fields_json: string }>`select id, fields_json from fie_entries`.execute(db)).rows;
  for (const row of rows) {
    const fields = JSON.parse(row.fields_json) as Record<string, unknown>;
    const surnames = [fieldText(fields, '820'), fieldText(fields, '830')].filter((part) => part !== '').join(' ');
    const name = fieldText(fields, '840');
    const sortName = surnames !== '' && name !== '' ? `${surnames}, ${name}` : surnames || name;
    if (sortName !== '') await sql`update fie_entries set sort_name = ${sortName} where id = ${row.id}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('fie_entries').dropColumn('sort_name').execute();
}
