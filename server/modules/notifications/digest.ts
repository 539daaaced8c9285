import type { Kysely } from 'kysely';
import { EXPIRING_SOON_DAYS } from '#shared/api/notifications.ts';
import { formatMadridDate, madridDayKey, toMadridParts } from '#shared/time/madrid.ts';
import type { Database } from '../../db/schema.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { DIGEST_SUBJECT } from './messages.ts';
import { expiringSoon } from './queries.ts';

/** The digest goes out from this Madrid hour on, once per firm and day. */
export const DIGEST_HOUR = 8;
/** At most this many of each list in one email; the screen has the rest. */
const LISTED_AT_MOST = 50;
const DAY_MS = 86_400_000;

export interface DigestOptions {
  db: Kysely<Database>;
  mailer: Pick<Mailer, 'sendMessage'>;
  now: () => Date;
  /** The web app's base URL, without a trailing slash. */
  publicUrl: string;
}

interface DigestItem {
  titular_name: string;
  organo_name: string;
  concepto: string;
  caducidad: string | null;
}

function line(item: DigestItem): string {
  const caducidad = item.caducidad === null ? 'sin plazo' : `caduca el ${formatMadridDate(new Date(item.caducidad))}`;
  return `- ${item.titular_name} · ${item.organo_name} · ${item.concepto} · ${caducidad}`;
}

export function digestText(fresh: readonly DigestItem[], expiring: readonly DigestItem[], link: string): string {
  const parts = ['Hola:', ''];
  if (fresh.length > 0) parts.push(`Notificaciones nuevas en DEHÚ (${fresh.length}):`, ...fresh.map(line), '');
  if (expiring.length > 0) parts.push(`Notificaciones pendientes que caducan en los próximos ${EXPIRING_SOON_DAYS} días (${expiring.length}):`, ...expiring.map(line), '');
  parts.push(`Consúltalas en ${link}`);
  return parts.join('\n');
}

/**
 * The daily DEHÚ digest: once per firm per Madrid day after DIGEST_HOUR, when the firm has
 * notifications first seen since its last digest or pending ones expiring within EXPIRING_SOON_DAYS,
 * one email to each of its users. The day is claimed with a guarded INSERT or UPDATE of dehu_digests
 * before sending, so two server processes (or a restart) never send a firm's digest twice.
 */
export class NotificationsDigest {
  constructor(private readonly options: DigestOptions) {}

  /** One pass over the firms; answers how many firms were sent their digest. */
  async run(): Promise<number> {
    const { db } = this.options;
    const now = this.options.now();
    if (toMadridParts(now).hour < DIGEST_HOUR) return 0;
    const today = madridDayKey(now);
    const groups = await db.selectFrom('dehu_notifications').select('group_id').distinct().execute();
    let sent = 0;
    for (const { group_id: groupId } of groups) {
      if (await this.sendTo(groupId, today, now)) sent += 1;
    }
    return sent;
  }

  private async sendTo(groupId: string, today: string, now: Date): Promise<boolean> {
    const { db, mailer, publicUrl } = this.options;
    const last = await db.selectFrom('dehu_digests').select(['last_day', 'last_sent_at']).where('group_id', '=', groupId).executeTakeFirst();
    if (last && last.last_day >= today) return false;
    const since = last?.last_sent_at ?? new Date(now.getTime() - DAY_MS).toISOString();
    const columns = ['titular_name', 'organo_name', 'concepto', 'caducidad'] as const;
    const [fresh, expiring] = await Promise.all([
      db.selectFrom('dehu_notifications').select(columns).where('group_id', '=', groupId).where('first_seen_at', '>', since).orderBy('first_seen_at').orderBy('id').limit(LISTED_AT_MOST).execute(),
      expiringSoon(db, now).select(columns).where('group_id', '=', groupId).orderBy('caducidad').orderBy('id').limit(LISTED_AT_MOST).execute(),
    ]);
    if (fresh.length === 0 && expiring.length === 0) return false;
    if (!(await this.claim(groupId, today, now, last?.last_day ?? null))) return false;
    const users = await db.selectFrom('users').select('email').where('group_id', '=', groupId).orderBy('email').execute();
    const link = `${publicUrl}/notifications`;
    const text = digestText(fresh, expiring, link);
    for (const user of users) await mailer.sendMessage({ to: user.email, subject: DIGEST_SUBJECT, text, link, purpose: 'dehu_digest' });
    return true;
  }

  /** Takes today's digest for the firm; false when another process (or pass) took it first. */
  private async claim(groupId: string, today: string, now: Date, lastDay: string | null): Promise<boolean> {
    const { db } = this.options;
    const at = now.toISOString();
    if (lastDay === null) {
      const inserted = await db.insertInto('dehu_digests').values({ group_id: groupId, last_day: today, last_sent_at: at }).onConflict((c) => c.column('group_id').doNothing()).returning('group_id').executeTakeFirst();
      return inserted !== undefined;
    }
    const updated = await db.updateTable('dehu_digests').set({ last_day: today, last_sent_at: at }).where('group_id', '=', groupId).where('last_day', '=', lastDay).returning('group_id').executeTakeFirst();
    return updated !== undefined;
  }
}
