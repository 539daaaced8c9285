import type { Kysely } from 'kysely';

/**
 * Issue 44 (3, 5): an alta the advisor filed in RED by other means is marked registered by hand, with
 * who did it (id, and the name as it was then) and an optional reference number; and a RED or A3
 * refusal keeps when it happened (last_error_at), so 'Ver Alta' can say when the last error came.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('altas_submissions').addColumn('last_error_at', 'text').execute();
  await db.schema.alterTable('altas_submissions').addColumn('red_manual_by', 'text').execute();
  await db.schema.alterTable('altas_submissions').addColumn('red_manual_by_name', 'text').execute();
  await db.schema.alterTable('altas_submissions').addColumn('red_manual_reference', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['red_manual_reference', 'red_manual_by_name', 'red_manual_by', 'last_error_at']) {
    await db.schema.alterTable('altas_submissions').dropColumn(column).execute();
  }
}
