import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Firm configurations (issue 43, item 1): a machine config may belong to the firm instead of a device
 * (machine_id null), so a firm with no PC keeps email configurations and its server robots send their
 * results with them. Device configs stay as they were. PostgreSQL drops the NOT NULL in place; SQLite
 * cannot, so the table is rebuilt with the same columns, rows and index (nothing references it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table machine_configs alter column machine_id drop not null`.execute(db);
  } else {
    await db.schema
      .createTable('machine_configs_0023')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('machine_id', 'text', (c) => c.references('machines.id').onDelete('cascade'))
      .addColumn('group_id', 'text', (c) => c.notNull().references('groups.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('ccc_list', 'text', (c) => c.notNull())
      .addColumn('email_settings', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await sql`insert into machine_configs_0023 (id, machine_id, group_id, name, ccc_list, email_settings, created_at)
      select id, machine_id, group_id, name, ccc_list, email_settings, created_at from machine_configs`.execute(db);
    await db.schema.dropTable('machine_configs').execute();
    await db.schema.alterTable('machine_configs_0023').renameTo('machine_configs').execute();
    await db.schema.createIndex('machine_configs_machine_idx').on('machine_configs').column('machine_id').execute();
  }
  // The firm's own configs are listed by group.
  await db.schema.createIndex('machine_configs_group_idx').on('machine_configs').columns(['group_id', 'machine_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('machine_configs_group_idx').execute();
  // Firm configs have no device to go back to.
  await sql`delete from machine_configs where machine_id is null`.execute(db);
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`alter table machine_configs alter column machine_id set not null`.execute(db);
}
