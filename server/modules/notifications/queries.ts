import { sql, type Kysely } from 'kysely';
import {
  EXPIRING_SOON_DAYS, NOTIFICATION_NOT_FOUND_MESSAGE,
  type notificationsQuerySchema, type NotificationDetail, type NotificationDocument, type NotificationsPage, type NotificationsSummary, type NotificationSortField,
} from '#shared/api/notifications.ts';
import { foldText } from '#shared/fie/list-filter.ts';
import { fromMadridParts } from '#shared/time/madrid.ts';
import type { z } from 'zod/mini';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { toNotification, type NotificationRow } from './mapping.ts';

type ParsedQuery = z.infer<typeof notificationsQuerySchema>;

const SORT_COLUMNS = {
  titular: 'n.titular_name',
  organoEmisor: 'n.organo_name',
  codProcedimiento: 'n.cod_procedimiento',
  concepto: 'n.concepto',
  disposicion: 'n.disposicion',
  caducidad: 'n.caducidad',
} as const satisfies Record<NotificationSortField, string>;

const DAY_MS = 86_400_000;

export function notificationNotFound(): HttpError {
  return new HttpError(404, 'NOTIFICATION_NOT_FOUND', NOTIFICATION_NOT_FOUND_MESSAGE);
}

/** A LIKE pattern that finds `text` anywhere, its wildcards taken literally (escape '\'). */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** The first instant of a Madrid day 'yyyy-mm-dd' (plus `addDays`), ISO. */
function madridDayStart(day: string, addDays = 0): string {
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
  return fromMadridParts({ year, month, day: date + addDays }).toISOString();
}

/** The firm's notifications with their machine, opener and document count. */
function notificationRows(db: Kysely<Database>, groupId: string) {
  return db
    .selectFrom('dehu_notifications as n')
    .leftJoin('machines as m', (join) => join.onRef('m.id', '=', 'n.machine_id').on('m.group_id', '=', groupId))
    .leftJoin('users as u', 'u.id', 'n.opened_by')
    .selectAll('n')
    .select((eb) => [
      'm.saved_as as machine_name',
      'u.name as opener_name',
      'u.email as opener_email',
      eb.selectFrom('dehu_documents as d').whereRef('d.notification_id', '=', 'n.id').select((inner) => inner.fn.countAll<number>().as('c')).as('document_count'),
    ])
    .where('n.group_id', '=', groupId);
}

/** Spec §7 notifications: one page of the view, filtered, searched and sorted (ties by id, for stable paging). */
export async function listNotifications(db: Kysely<Database>, groupId: string, query: ParsedQuery): Promise<NotificationsPage> {
  let filtered = db.selectFrom('dehu_notifications as n').where('n.group_id', '=', groupId);
  if (query.view === 'pendientes') filtered = filtered.where('n.estado', '=', 'pendiente');
  if (query.view === 'realizadas') filtered = filtered.where('n.estado', '!=', 'pendiente');
  if (query.certificate !== undefined) filtered = filtered.where('n.certificate_fingerprint', '=', query.certificate);
  const search = foldText(query.search ?? '');
  if (search !== '') filtered = filtered.where(sql<boolean>`n.search_text like ${containsPattern(search)} escape '\\'`);
  for (const [column, range] of [['n.disposicion', query.disposicion], ['n.caducidad', query.caducidad]] as const) {
    if (range === undefined) continue;
    const [from = '', to = ''] = range.split('..');
    if (from !== '') filtered = filtered.where(column, '>=', madridDayStart(from));
    // Both ends included: before the start of the day after `to`.
    if (to !== '') filtered = filtered.where(column, '<', madridDayStart(to, 1));
  }
  const { total } = await filtered.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow();
  const ids = filtered.select('n.id');
  // A page past the end (an old link, the last item of the last page gone) serves the last page instead.
  const page = Math.min(query.page, Math.max(1, Math.ceil(Number(total) / query.pageSize)));

  const column = SORT_COLUMNS[query.sortby];
  const direction = query.sortdir;
  const rows = await notificationRows(db, groupId)
    .where('n.id', 'in', ids)
    // Empty values last either way, alike on SQLite and PostgreSQL (which order nulls differently).
    .orderBy(sql`case when ${sql.ref(column)} is null then 1 else 0 end`)
    .orderBy(column, direction)
    .orderBy('n.id', direction)
    .limit(query.pageSize)
    .offset((page - 1) * query.pageSize)
    .execute();
  return { total: Number(total), page, items: rows.map((row) => toNotification(row as NotificationRow)) };
}

export async function notificationDocuments(db: Kysely<Database>, notificationId: string): Promise<NotificationDocument[]> {
  const rows = await db.selectFrom('dehu_documents').selectAll().where('notification_id', '=', notificationId).orderBy('created_at').orderBy('id').execute();
  return rows.map((row) => ({ _id: row.id, kind: row.kind, name: row.name, mimeType: row.mime_type, size: Number(row.size), createdAt: row.created_at }));
}

/** One of the firm's notifications with its documents; another firm's is 404. */
export async function notificationDetail(db: Kysely<Database>, groupId: string, id: string): Promise<NotificationDetail> {
  const row = (await notificationRows(db, groupId).where('n.id', '=', id).executeTakeFirst()) as NotificationRow | undefined;
  if (!row) throw notificationNotFound();
  return {
    ...toNotification(row),
    csvResguardo: row.csv_resguardo,
    receptor: row.receptor_name !== null ? { nombre: row.receptor_name, nif: row.receptor_nif ?? '' } : null,
    documents: await notificationDocuments(db, id),
  };
}

/** The Home banner: new in the last day, pending notificaciones expiring within EXPIRING_SOON_DAYS, last update. */
export async function notificationsSummary(db: Kysely<Database>, groupId: string, now: Date): Promise<NotificationsSummary> {
  const dayAgo = new Date(now.getTime() - DAY_MS).toISOString();
  const [fresh, expiring, update] = await Promise.all([
    db.selectFrom('dehu_notifications').select((eb) => eb.fn.countAll<number | string>().as('c')).where('group_id', '=', groupId).where('first_seen_at', '>', dayAgo).executeTakeFirstOrThrow(),
    expiringSoon(db, now).where('group_id', '=', groupId).select((eb) => [eb.fn.countAll<number | string>().as('c'), eb.fn.min('caducidad').as('soonest')]).executeTakeFirstOrThrow(),
    db.selectFrom('dehu_watched_certificates').select((eb) => eb.fn.max('update_finished_at').as('last')).where('group_id', '=', groupId).where('update_state', '=', 'done').executeTakeFirstOrThrow(),
  ]);
  return { newCount: Number(fresh.c), expiringSoonCount: Number(expiring.c), soonestCaducidad: expiring.soonest ?? null, lastUpdateAt: update.last ?? null };
}

/** Pending notificaciones whose caducidad is in (now, now + EXPIRING_SOON_DAYS days]. */
export function expiringSoon(db: Kysely<Database>, now: Date) {
  return db
    .selectFrom('dehu_notifications')
    .where('estado', '=', 'pendiente')
    .where('tipo', '=', 'notificacion')
    .where('caducidad', '>', now.toISOString())
    .where('caducidad', '<=', new Date(now.getTime() + EXPIRING_SOON_DAYS * DAY_MS).toISOString());
}
