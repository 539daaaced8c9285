import { sql, type Kysely } from 'kysely';

/**
 * The history's totals without counting: `count(*)` over a million index entries costs tens of ms, so
 * each group keeps how many runs it has, manual (scheduled = 0) and scheduled or remote (scheduled = 1),
 * raised in the same transaction that inserts a run (server/modules/flowlogs/counts.ts). Existing runs
 * are counted once here. Also the indexes the history's other sort orders read a page from.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('flow_run_counts')
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('scheduled', 'integer', (c) => c.notNull())
    .addColumn('runs', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('flow_run_counts_pk', ['group_id', 'scheduled'])
    .execute();
  await sql`insert into flow_run_counts (group_id, scheduled, runs) select group_id, scheduled, count(*) from flow_runs group by group_id, scheduled`.execute(db);

  // Sorting a page by result, cost or robot name reads it from an index instead of sorting every run.
  await db.schema.createIndex('flow_runs_group_result_idx').on('flow_runs').columns(['group_id', 'result', 'created_at']).execute();
  await db.schema.createIndex('flow_runs_group_cost_idx').on('flow_runs').columns(['group_id', 'cost', 'created_at']).execute();
  await db.schema.createIndex('flow_runs_group_flow_name_idx').on('flow_runs').columns(['group_id', 'flow_name', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of ['flow_runs_group_flow_name_idx', 'flow_runs_group_cost_idx', 'flow_runs_group_result_idx']) {
    await db.schema.dropIndex(index).execute();
  }
  await db.schema.dropTable('flow_run_counts').execute();
}
