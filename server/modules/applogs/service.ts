import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { z } from 'zod/mini';
import type { appLogRequestSchema } from '#shared/api/applogs.ts';
import type { Database } from '../../db/schema.ts';
import type { ClientInfo } from '../../http/client-info.ts';

export type AppLogEntry = z.output<typeof appLogRequestSchema>;

/** Stores a client error report with who sent it (client headers, and the user when signed in). */
export async function recordAppLog(db: Kysely<Database>, entry: AppLogEntry, client: ClientInfo, userId: string | null, now: Date): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('app_logs')
    .values({
      id,
      level: entry.level,
      message: entry.message,
      stack: entry.stack ?? null,
      url: entry.url ?? null,
      context: entry.context === undefined ? null : JSON.stringify(entry.context),
      client_app: client.app,
      client_version: client.version,
      client_language: client.language,
      user_id: userId,
      created_at: now.toISOString(),
    })
    .execute();
  return id;
}
