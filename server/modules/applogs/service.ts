import { randomUUID } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import { sql, type Kysely } from 'kysely';
import type { z } from 'zod/mini';
import type { appLogRequestSchema } from '#shared/api/applogs.ts';
import type { Database } from '../../db/schema.ts';
import type { ClientInfo } from '../../http/client-info.ts';
import { HttpError } from '../../http/errors.ts';

export type AppLogEntry = z.output<typeof appLogRequestSchema>;

/** How much guests may store through /api/applogs, and how long it is kept. */
export interface AppLogLimits {
  /** Bytes one sender (IP; IPv6 /64) may store per rolling hour; over it, a 429 and nothing stored. */
  bytesPerSenderPerHour: number;
  /** Reports older than this are deleted. */
  maxAgeMs: number;
  /** Newest reports kept, by count and by total bytes; older ones are deleted. */
  maxRows: number;
  maxTotalBytes: number;
  /** How often the pruning runs (also once at start). */
  pruneEveryMs: number;
}

const HOUR_MS = 60 * 60 * 1000;

export const DEFAULT_APPLOG_LIMITS: AppLogLimits = {
  // A crash loop sends a few KB per report; 1 MiB/h is hundreds of reports.
  bytesPerSenderPerHour: 1024 * 1024,
  maxAgeMs: 30 * 24 * HOUR_MS,
  maxRows: 20_000,
  maxTotalBytes: 100 * 1024 * 1024,
  pruneEveryMs: 10 * 60 * 1000,
};

export const APPLOG_BUDGET_MESSAGE = 'Se han enviado demasiados informes de error desde esta conexión. Inténtalo de nuevo más tarde.';

/**
 * The key a sender's budget is counted under: the IPv4 address, or the /64 of an IPv6 one (one
 * machine usually holds a whole /64 and could rotate through it).
 */
export function senderKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (isIPv4(ip) || !isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('%')[0]?.split('::') ?? [];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = ip.includes('::') ? [...headGroups, ...Array<string>(missing).fill('0'), ...tailGroups] : headGroups;
  return `${groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

interface Sender {
  client: ClientInfo;
  ip: string;
  userId: string | null;
}

/**
 * Stores a client error report with who sent it (client headers, sender IP, and the user when signed
 * in), unless the sender has used up its byte budget for the last hour (429, nothing stored). The
 * check and the insert share one transaction (serialised on SQLite; on PostgreSQL concurrent reports
 * can overshoot by a few reports at most).
 */
export async function recordAppLog(db: Kysely<Database>, entry: AppLogEntry, sender: Sender, now: Date, limits: AppLogLimits): Promise<string> {
  const context = entry.context === undefined ? null : JSON.stringify(entry.context);
  const sizeBytes = [entry.message, entry.stack, entry.url, context].reduce((sum, text) => sum + (text ? Buffer.byteLength(text) : 0), 0);
  const key = senderKey(sender.ip);
  const since = new Date(now.getTime() - HOUR_MS).toISOString();
  const id = randomUUID();
  await db.transaction().execute(async (trx) => {
    const used = await trx
      .selectFrom('app_logs')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('size_bytes'), eb.lit(0)).as('bytes'))
      .where('client_ip', '=', key)
      .where('created_at', '>', since)
      .executeTakeFirst();
    if (Number(used?.bytes ?? 0) + sizeBytes > limits.bytesPerSenderPerHour) {
      throw new HttpError(429, 'RATE_LIMITED', APPLOG_BUDGET_MESSAGE);
    }
    await trx
      .insertInto('app_logs')
      .values({
        id,
        level: entry.level,
        message: entry.message,
        stack: entry.stack ?? null,
        url: entry.url ?? null,
        context,
        client_app: sender.client.app,
        client_version: sender.client.version,
        client_language: sender.client.language,
        user_id: sender.userId,
        client_ip: key,
        size_bytes: sizeBytes,
        created_at: now.toISOString(),
      })
      .execute();
  });
  return id;
}

/**
 * Deletes reports older than maxAgeMs, then all but the newest ones that fit in maxRows and
 * maxTotalBytes (running totals by window functions, which SQLite and PostgreSQL both have).
 * Returns how many rows went.
 */
export async function pruneAppLogs(db: Kysely<Database>, now: Date, limits: Pick<AppLogLimits, 'maxAgeMs' | 'maxRows' | 'maxTotalBytes'>): Promise<number> {
  const cutoff = new Date(now.getTime() - limits.maxAgeMs).toISOString();
  const old = await db.deleteFrom('app_logs').where('created_at', '<', cutoff).executeTakeFirst();
  const over = await sql`
    delete from app_logs where id in (
      select id from (
        select id,
          row_number() over (order by created_at desc, id desc) as position,
          sum(size_bytes) over (order by created_at desc, id desc rows unbounded preceding) as running_bytes
        from app_logs
      ) ranked
      where position > ${limits.maxRows} or running_bytes > ${limits.maxTotalBytes}
    )`.execute(db);
  return Number(old.numDeletedRows) + Number(over.numAffectedRows ?? 0);
}
