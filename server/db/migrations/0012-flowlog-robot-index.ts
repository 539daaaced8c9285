import type { Kysely } from 'kysely';

/**
 * The history filtered by robot (GET flowlog?flow=): one robot's page read in order straight from an
 * index, newest first with the id tie-break, like the group's other history indexes (0006).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('flow_runs_group_flow_created_id_idx').on('flow_runs').columns(['group_id', 'flow_id', 'created_at', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('flow_runs_group_flow_created_id_idx').execute();
}
