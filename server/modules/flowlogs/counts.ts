import { sql, type CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { preparedQuery, type SlotOf } from '../../db/prepared.ts';
import { readRowsNow } from '../../db/direct-reads.ts';

/**
 * Per-group run counters (migration 0005), so the history's total is one primary-key read instead of
 * a count over every run. Call recordRunCreated in the very transaction that inserts the run: the
 * counter and the runs can then never disagree, whichever server process inserted them.
 */
export async function recordRunCreated(trx: Transaction<Database> | Kysely<Database>, groupId: string, scheduled: boolean): Promise<void> {
  await trx
    .insertInto('flow_run_counts')
    .values({ group_id: groupId, scheduled: scheduled ? 1 : 0, runs: 1 })
    .onConflict((conflict) => conflict.columns(['group_id', 'scheduled']).doUpdateSet({ runs: sql<number>`flow_run_counts.runs + 1` }))
    .execute();
}

/** The counters of the group: both kinds, or one (scheduled or remote 1, manual 0). */
const preparedCount = preparedQuery(
  (byKind: boolean) => String(byKind),
  (db: Kysely<Database>, byKind: boolean, slot: SlotOf<{ groupId: string; scheduled: number }>) => {
    const query = db.selectFrom('flow_run_counts').select(sql<number>`coalesce(sum(runs), 0)`.as('runs')).where('group_id', '=', slot('groupId'));
    return byKind ? query.where('scheduled', '=', slot('scheduled')) : query;
  },
);

/** The query of the group's counters: all runs, or only scheduled/remote (true) or manual (false) ones; its one row's `runs` is the count. */
export function countQuery(db: Kysely<Database>, groupId: string, scheduled?: boolean): CompiledQuery<{ runs: number }> {
  return preparedCount(db, scheduled !== undefined, { groupId, scheduled: scheduled ? 1 : 0 });
}

/** The group's runs: all of them, or only scheduled/remote (true) or manual (false) ones. */
export async function countRuns(db: Kysely<Database>, groupId: string, scheduled?: boolean): Promise<number> {
  const query = countQuery(db, groupId, scheduled);
  const rows = readRowsNow(db, query) ?? (await db.executeQuery(query)).rows;
  return Number(rows[0]?.runs ?? 0);
}
