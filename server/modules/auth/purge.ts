import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { longestWindowMs, type AuthLimits } from './limits.ts';
import { ROTATION_GRACE_MS } from './sessions.ts';
import { purgeThrottle } from './throttle.ts';

export interface PurgeCounts {
  sessions: number;
  userTokens: number;
  throttle: number;
}

/**
 * Deletes what can no longer be used: sessions past their refresh expiry, revoked sessions whose
 * family is dead (logout, theft, password change), spent or expired emailed tokens, and finished
 * limit counters. Revoked rows of a live family stay until they expire: a replay of one is how a
 * stolen refresh token is detected. Sealed successors are wiped once the grace is over.
 */
export async function purgeAuthData(db: Kysely<Database>, now: Date, limits: AuthLimits): Promise<PurgeCounts> {
  const nowIso = now.toISOString();
  const graceOver = new Date(now.getTime() - ROTATION_GRACE_MS).toISOString();
  const expired = await db.deleteFrom('sessions').where('refresh_expires_at', '<=', nowIso).executeTakeFirst();
  const dead = await db
    .deleteFrom('sessions')
    .where('revoked_at', '<=', graceOver)
    .where('family_id', 'not in', (eb) => eb.selectFrom('sessions as live').select('live.family_id').where('live.revoked_at', 'is', null))
    .executeTakeFirst();
  await db.updateTable('sessions').set({ successor_sealed: null }).where('successor_sealed', 'is not', null).where('revoked_at', '<=', graceOver).execute();
  const tokens = await db
    .deleteFrom('user_tokens')
    .where((eb) => eb.or([eb('expires_at', '<=', nowIso), eb('used_at', 'is not', null)]))
    .executeTakeFirst();
  const throttle = await purgeThrottle(db, now.getTime(), longestWindowMs(limits));
  return { sessions: Number(expired.numDeletedRows) + Number(dead.numDeletedRows), userTokens: Number(tokens.numDeletedRows), throttle };
}

/** Purges every limits.purgeEveryMs (hourly); the timer never holds the process open and stops on close. */
export function schedulePurge(app: FastifyInstance, ctx: AppContext, limits: AuthLimits): void {
  let running: Promise<unknown> | null = null;
  const run = () => {
    if (running) return; // a slow purge is never stacked on another
    running = purgeAuthData(ctx.db, ctx.now(), limits)
      .catch((error: unknown) => app.log.error({ err: error }, 'No se han podido purgar las sesiones caducadas'))
      .finally(() => (running = null));
  };
  let timer: NodeJS.Timeout | undefined;
  // Not at start-up: it would compete for connections with the start-up work of other modules, and
  // nothing is urgent about a purge.
  app.addHook('onReady', async () => {
    timer = setInterval(run, limits.purgeEveryMs);
    timer.unref();
  });
  // onClose hooks run last-added first, so this stops the timer and lets a purge finish before the
  // database is closed.
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
