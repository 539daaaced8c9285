import type { Kysely } from 'kysely';

/**
 * The history orders a page by its sort column, then created_at, then id (so runs with equal times
 * page the same way every time). Indexes that stopped at created_at left SQLite sorting the id
 * tie-break in a temporary B-tree on every page; these end with id, so a page is read in order
 * straight from the index. Each replaces the index of the same columns without id (0004, 0005).
 */
const TIEBREAK_INDEXES = [
  { name: 'flow_runs_group_created_id_idx', columns: ['group_id', 'created_at', 'id'], replaces: 'flow_runs_group_created_idx' },
  { name: 'flow_runs_group_scheduled_created_id_idx', columns: ['group_id', 'scheduled', 'created_at', 'id'], replaces: 'flow_runs_group_scheduled_created_idx' },
  { name: 'flow_runs_group_result_created_id_idx', columns: ['group_id', 'result', 'created_at', 'id'], replaces: 'flow_runs_group_result_idx' },
  { name: 'flow_runs_group_cost_created_id_idx', columns: ['group_id', 'cost', 'created_at', 'id'], replaces: 'flow_runs_group_cost_idx' },
  { name: 'flow_runs_group_flow_name_created_id_idx', columns: ['group_id', 'flow_name', 'created_at', 'id'], replaces: 'flow_runs_group_flow_name_idx' },
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const index of TIEBREAK_INDEXES) {
    // The new one first: the history is never without an index to read from.
    await db.schema.createIndex(index.name).on('flow_runs').columns([...index.columns]).execute();
    await db.schema.dropIndex(index.replaces).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of TIEBREAK_INDEXES) {
    await db.schema.createIndex(index.replaces).on('flow_runs').columns(index.columns.filter((column) => column !== 'id')).execute();
    await db.schema.dropIndex(index.name).execute();
  }
}
