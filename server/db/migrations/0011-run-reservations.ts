import { sql, type Kysely } from 'kysely';

/**
 * Credit reservations and the fair queue (issue 18). A launch reserves its estimated cost on its run
 * (reserved_cost), which counts against the firm's balance while the run is queued or running; the
 * run's close charges what was used within it and releases the rest. queue_rank orders the server's
 * queue fairly between firms: a firm's n-th waiting run has the n-th rank from where the queue's head
 * was when its first one arrived, so runs are taken round-robin across firms.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('flow_runs').addColumn('reserved_cost', 'double precision', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('flow_runs').addColumn('queue_rank', 'bigint').execute();
  // What a launch sums (the firm's unfinished runs) and what the claim counts (the firm's running ones).
  await db.schema.createIndex('flow_runs_group_state_idx').on('flow_runs').columns(['group_id', 'state']).execute();
  // The queue's head: the lowest rank still waiting.
  await db.schema.createIndex('flow_runs_state_rank_idx').on('flow_runs').columns(['state', 'queue_rank']).execute();
  // Runs already waiting keep their order: by creation, each firm's ranks counted from 0.
  await sql`update flow_runs set queue_rank = 0 where state = 'queued'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('flow_runs_state_rank_idx').execute();
  await db.schema.dropIndex('flow_runs_group_state_idx').execute();
  await db.schema.alterTable('flow_runs').dropColumn('queue_rank').execute();
  await db.schema.alterTable('flow_runs').dropColumn('reserved_cost').execute();
}
