import type { Kysely } from 'kysely';

/**
 * Flows: the catalogue loaded from resources/flows, stored files (uploads and run outputs), runs
 * (the flow log) with their log lines, the credit ledger and schedules. Portable types only, as in 0001.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per flow folder; a folder that disappears keeps its row (old runs still name it) with active = 0.
  await db.schema
    .createTable('flows')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('group_name', 'text', (c) => c.notNull())
    .addColumn('runs_on', 'text', (c) => c.notNull())
    .addColumn('usage_ratio', 'double precision', (c) => c.notNull())
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('flow_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('flow_id', 'text', (c) => c.notNull())
    .addColumn('flow_name', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text')
    .addColumn('execution_token', 'text', (c) => c.notNull().unique())
    // queued | running | finished
    .addColumn('state', 'text', (c) => c.notNull())
    // Success | Fail | WrongInput | NotEnoughSlans | FlowAborted; null until finished
    .addColumn('result', 'text')
    .addColumn('stopped_by_user', 'integer', (c) => c.notNull().defaultTo(0))
    // The launcher status of spec §4 (200, 242, 402, 500, 504...); null until finished
    .addColumn('launch_status', 'integer')
    .addColumn('scheduled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('schedule_id', 'text')
    .addColumn('machine_name', 'text')
    .addColumn('successful_iterations', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_iterations', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('usage_units', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('usage_ratio', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('cost', 'double precision', (c) => c.notNull().defaultTo(0))
    // JSON: the inputs as sent (file inputs hold upload ids, never contents)
    .addColumn('inputs', 'text', (c) => c.notNull())
    // JSON: summary figures and the message of the robot's result
    .addColumn('summary', 'text')
    .addColumn('message', 'text')
    .addColumn('accept_extra_usage', 'integer', (c) => c.notNull().defaultTo(0))
    // Who is running it and until when the claim holds (a crashed worker's run can be closed once)
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('flow_runs_group_created_idx').on('flow_runs').columns(['group_id', 'created_at']).execute();
  await db.schema.createIndex('flow_runs_group_scheduled_created_idx').on('flow_runs').columns(['group_id', 'scheduled', 'created_at']).execute();
  await db.schema.createIndex('flow_runs_user_idempotency_idx').on('flow_runs').columns(['user_id', 'idempotency_key']).unique().execute();
  await db.schema.createIndex('flow_runs_state_idx').on('flow_runs').column('state').execute();
  await db.schema.createIndex('flow_runs_schedule_idx').on('flow_runs').column('schedule_id').execute();

  // Appended one by one while a run goes; read in seq order.
  await db.schema
    .createTable('flow_run_logs')
    .addColumn('run_id', 'text', (c) => c.notNull().references('flow_runs.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('level', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('flow_run_logs_pk', ['run_id', 'seq'])
    .execute();

  // Files live on disk under the storage folder; this is their index and owner.
  await db.schema
    .createTable('stored_files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // upload | output
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('run_id', 'text', (c) => c.references('flow_runs.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('stored_files_run_idx').on('stored_files').column('run_id').execute();
  await db.schema.createIndex('stored_files_group_idx').on('stored_files').columns(['group_id', 'created_at']).execute();

  // One debit per run at most: the unique run_id makes a second close of the same run a no-op.
  await db.schema
    .createTable('credit_ledger')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('run_id', 'text', (c) => c.notNull().unique().references('flow_runs.id').onDelete('cascade'))
    .addColumn('usage_units', 'double precision', (c) => c.notNull())
    .addColumn('usage_ratio', 'double precision', (c) => c.notNull())
    .addColumn('amount', 'double precision', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('credit_ledger_group_created_idx').on('credit_ledger').columns(['group_id', 'created_at']).execute();

  await db.schema
    .createTable('flow_schedules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('flow_id', 'text', (c) => c.notNull())
    .addColumn('flow_name', 'text', (c) => c.notNull())
    .addColumn('scheduled_date', 'text', (c) => c.notNull())
    .addColumn('repeat', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('every', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('interval', 'text', (c) => c.notNull())
    .addColumn('flow_inputs', 'text', (c) => c.notNull())
    .addColumn('send_output_to_server', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('machine_id', 'text')
    .addColumn('local_machine_hash', 'text')
    .addColumn('local_process', 'text')
    // A runner claims a due schedule before it starts it, so two processes never run it twice.
    .addColumn('claimed_by', 'text')
    .addColumn('claimed_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('flow_schedules_due_idx').on('flow_schedules').column('scheduled_date').execute();
  await db.schema.createIndex('flow_schedules_group_idx').on('flow_schedules').column('group_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['flow_schedules', 'credit_ledger', 'stored_files', 'flow_run_logs', 'flow_runs', 'flows']) {
    await db.schema.dropTable(table).execute();
  }
}
