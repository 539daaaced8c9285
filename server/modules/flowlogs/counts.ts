import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { preparedQuery, type SlotOf } from '../../db/prepared.ts';
import { readRows } from '../../db/direct-reads.ts';

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

/** The group's runs: all of them, or only scheduled/remote (true) or manual (false) ones. */
export async function countRuns(db: Kysely<Database>, groupId: string, scheduled?: boolean): Promise<number> {
  const rows = await readRows(db, preparedCount(db, scheduled !== undefined, { groupId, scheduled: scheduled ? 1 : 0 }));
  return Number(rows[0]?.runs ?? 0);
}
