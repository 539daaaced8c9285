import type { Kysely } from 'kysely';
import type { ReleaseNote } from '#shared/domain/release-note.ts';
import type { Database } from '../../db/schema.ts';

/** Release notes flagged active, newest first. */
export async function listActiveNotes(db: Kysely<Database>): Promise<ReleaseNote[]> {
  const rows = await db
    .selectFrom('release_notes')
    .select(['id', 'content', 'created_at'])
    .where('active', '=', 1)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => ({ id: row.id, content: row.content, createAt: row.created_at }));
}
