import { sql, type RawBuilder } from 'kysely';
import type { FieListQuery } from '#shared/api/fie.ts';
import { foldText } from '#shared/fie/list-filter.ts';

/** `%text%` for LIKE, with the wildcards of the text itself escaped. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * The list's filters (shared/fie/list-filter.ts is the same rule on the screen) as conditions on the
 * entries aliased `e`: the whole list (listLinkedEntries) and its pages (list-page.ts) filter alike.
 */
export function listFilterConditions(query: FieListQuery): RawBuilder<boolean>[] {
  const conditions: RawBuilder<boolean>[] = [];
  const q = foldText(query.q ?? '');
  if (q !== '') conditions.push(sql<boolean>`e.search_text like ${containsPattern(q)} escape '\\'`);
  if (query.type !== undefined) conditions.push(sql<boolean>`e.type in (${sql.join(query.type.split(','))})`);
  if (query.from !== undefined) conditions.push(sql<boolean>`e.entry_date >= ${query.from}`);
  if (query.to !== undefined) conditions.push(sql<boolean>`e.entry_date <= ${query.to}`);
  if (query.a3 !== undefined) conditions.push(sql<boolean>`e.a3_state = ${query.a3}`);
  return conditions;
}
