import { sql, type Kysely } from 'kysely';

/**
 * App logs remember who sent them and how big they are, so the server can hold each sender to a
 * byte budget per hour and prune the table by total size (public reports once filled the disk).
 * Portable types only, as in 0001.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // The sender's address (an IPv6 client counts by its /64, which one machine can cycle through).
  await db.schema.alterTable('app_logs').addColumn('client_ip', 'text').execute();
  // Bytes of the stored text fields (message, stack, url, context).
  await db.schema.alterTable('app_logs').addColumn('size_bytes', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await sql`update app_logs set size_bytes = length(message) + coalesce(length(stack), 0) + coalesce(length(url), 0) + coalesce(length(context), 0)`.execute(db);
  await db.schema.createIndex('app_logs_client_ip_created_at_idx').on('app_logs').columns(['client_ip', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('app_logs_client_ip_created_at_idx').execute();
  await db.schema.alterTable('app_logs').dropColumn('size_bytes').execute();
  await db.schema.alterTable('app_logs').dropColumn('client_ip').execute();
}
