import type { Kysely } from 'kysely';

/**
 * The desktop runtime (issue 7): device tokens that let a PC's desktop app or agent act for its
 * machine, when each machine last called, and runs that execute on a machine rather than on the
 * server (which machine, whether launched remotely, whether its files go to the server, and the
 * folder and file names it left on the PC).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('device_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('machine_id', 'text', (c) => c.notNull().references('machines.id').onDelete('cascade'))
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    /** The user who linked the PC: runs it launches on its own are theirs. */
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    /** SHA-256 of the token, hex: the token itself is never stored. */
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('device_tokens_machine_idx').on('device_tokens').column('machine_id').execute();

  await db.schema.alterTable('machines').addColumn('last_seen_at', 'text').execute();

  await db.schema.alterTable('flow_runs').addColumn('machine_id', 'text', (c) => c.references('machines.id').onDelete('set null')).execute();
  await db.schema.alterTable('flow_runs').addColumn('remote', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('flow_runs').addColumn('send_output_to_server', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('flow_runs').addColumn('output_folder', 'text').execute();
  /** JSON array of the file names the run left in output_folder on its machine. */
  await db.schema.alterTable('flow_runs').addColumn('output_file_names', 'text').execute();
  // A machine's long poll looks for its queued runs, oldest first.
  await db.schema.createIndex('flow_runs_machine_state_created_idx').on('flow_runs').columns(['machine_id', 'state', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('flow_runs_machine_state_created_idx').execute();
  for (const column of ['output_file_names', 'output_folder', 'send_output_to_server', 'remote', 'machine_id']) {
    await db.schema.alterTable('flow_runs').dropColumn(column).execute();
  }
  await db.schema.alterTable('machines').dropColumn('last_seen_at').execute();
  await db.schema.dropTable('device_tokens').execute();
}
