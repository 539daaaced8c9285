import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { FileStorage } from '../storage/service.ts';

/** Rows removed per statement by the purge, so one pass never holds the database long. */
const PURGE_BATCH = 500;

/**
 * Removes unsent files (rows, then bytes): no session can attach them any more. An upload under way
 * for an ended session checks its session again once stored (public.ts), so none slips past.
 */
async function removeUnsentFiles(db: Kysely<Database>, storage: FileStorage, files: readonly { id: string; storage_key: string }[]): Promise<void> {
  if (files.length === 0) return;
  await db.deleteFrom('altas_files').where('id', 'in', files.map((file) => file.id)).where('submission_id', 'is', null).execute();
  await storage.remove(files.map((file) => file.storage_key));
}

/**
 * Ends every form session of a client user (the company's access was turned off, the company removed
 * or moved to another email, or a new password sent), and removes the files those sessions uploaded
 * without sending them.
 */
export async function endClientSessions(db: Kysely<Database>, storage: FileStorage, clientUserId: string): Promise<void> {
  await db.deleteFrom('altas_client_sessions').where('client_user_id', '=', clientUserId).execute();
  const files = await db.selectFrom('altas_files').select(['id', 'storage_key']).where('client_user_id', '=', clientUserId).where('submission_id', 'is', null).execute();
  await removeUnsentFiles(db, storage, files);
}

/** Ends one session (sign-out) and removes the files it uploaded without sending them. */
export async function endSession(db: Kysely<Database>, storage: FileStorage, sessionId: string): Promise<void> {
  await db.deleteFrom('altas_client_sessions').where('id', '=', sessionId).execute();
  const files = await db.selectFrom('altas_files').select(['id', 'storage_key']).where('session_id', '=', sessionId).where('submission_id', 'is', null).execute();
  await removeUnsentFiles(db, storage, files);
}

/**
 * The timer's pass (app.ts, every FORM_PURGE_INTERVAL_MS): every firm's ended sessions, and the
 * unsent files of sessions that are over or gone.
 */
export async function purgeFormSessions(db: Kysely<Database>, storage: FileStorage, now: Date): Promise<{ sessions: number; files: number }> {
  const at = now.toISOString();
  const sessions = await db.deleteFrom('altas_client_sessions').where('expires_at', '<=', at).executeTakeFirst();
  let files = 0;
  for (;;) {
    const orphans = await db
      .selectFrom('altas_files as f')
      .select(['f.id', 'f.storage_key'])
      .where('f.submission_id', 'is', null)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('altas_client_sessions as s').select('s.id').whereRef('s.id', '=', 'f.session_id').where('s.expires_at', '>', at))))
      .limit(PURGE_BATCH)
      .execute();
    await removeUnsentFiles(db, storage, orphans);
    files += orphans.length;
    if (orphans.length < PURGE_BATCH) break;
  }
  return { sessions: Number(sessions.numDeletedRows), files };
}
