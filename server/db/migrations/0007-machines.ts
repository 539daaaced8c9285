import type { Kysely } from 'kysely';

/**
 * Machines (the PCs running the desktop app or the agent), the certificate metadata each one synced,
 * their configs, and the flows' saved script settings. A machine is one row per firm and PC hash: two
 * firms on one PC never share a row. No key material is stored anywhere here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('machines')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('owner_user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('machine_hash', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('saved_as', 'text', (c) => c.notNull())
    .addColumn('shared', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_sync_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('machines_group_hash_unique', ['group_id', 'machine_hash'])
    .execute();

  await db.schema
    .createTable('machine_certificates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('machine_id', 'text', (c) => c.notNull().references('machines.id').onDelete('cascade'))
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('serial_number', 'text', (c) => c.notNull())
    .addColumn('subject_string', 'text', (c) => c.notNull())
    .addColumn('common_name', 'text', (c) => c.notNull())
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('not_before', 'text', (c) => c.notNull())
    .addColumn('not_after', 'text', (c) => c.notNull())
    .addColumn('nif_vat', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('store', 'text', (c) => c.notNull())
    .addColumn('synced_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('machine_certificates_machine_fingerprint_unique', ['machine_id', 'fingerprint'])
    .execute();
  // The expiry radar reads a firm's certificates by expiry date.
  await db.schema.createIndex('machine_certificates_group_expiry_idx').on('machine_certificates').columns(['group_id', 'not_after']).execute();

  await db.schema
    .createTable('machine_configs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('machine_id', 'text', (c) => c.notNull().references('machines.id').onDelete('cascade'))
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    /** JSON array of CCCs. */
    .addColumn('ccc_list', 'text', (c) => c.notNull())
    /** JSON object of EmailSettings, or null. */
    .addColumn('email_settings', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('machine_configs_machine_idx').on('machine_configs').column('machine_id').execute();

  await db.schema
    .createTable('script_settings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('flow_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    /** JSON object: the setting's data, with its 'configuration' group. */
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('script_settings_group_flow_idx').on('script_settings').columns(['group_id', 'flow_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['script_settings', 'machine_configs', 'machine_certificates', 'machines']) {
    await db.schema.dropTable(table).execute();
  }
}
