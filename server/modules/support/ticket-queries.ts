import type { Kysely } from 'kysely';
import { TICKET_PAGE_SIZE, type Ticket, type TicketCategory, type TicketMessage, type TicketPage, type TicketStatus } from '#shared/api/support.ts';
import type { Database } from '../../db/schema.ts';

/**
 * Reading tickets into the contract's shape. `side` says whose unread count a ticket carries: the
 * firm's (support answers it has not read) or the support team's (the firm's messages), and whether
 * the firm's name goes with it (only the team sees it).
 */
export type TicketSide = 'firm' | 'support';

export interface TicketScope {
  side: TicketSide;
  /** The firm whose tickets these are; null: every firm's (the support team). */
  groupId: string | null;
}

/** A ticket row with its opener, firm and run: what every answer about a ticket starts from. */
export interface TicketRow {
  id: string;
  group_id: string;
  subject: string;
  category: string;
  status: TicketStatus;
  user_unread: number;
  support_unread: number;
  created_at: string;
  updated_at: string;
  opener_name: string;
  opener_email: string;
  firm_name: string;
  run_id: string | null;
  run_robot: string | null;
  run_created_at: string | null;
  run_state: string | null;
  run_result: string | null;
  run_stopped_by_user: number | null;
  run_message: string | null;
  run_finished_at: string | null;
}

function ticketRows(db: Kysely<Database>, scope: TicketScope) {
  let query = db
    .selectFrom('support_tickets as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .innerJoin('groups as g', 'g.id', 't.group_id')
    .leftJoin('flow_runs as r', 'r.id', 't.run_id')
    .select([
      't.id', 't.group_id', 't.subject', 't.category', 't.status', 't.user_unread', 't.support_unread', 't.created_at', 't.updated_at',
      'u.name as opener_name', 'u.email as opener_email', 'g.name as firm_name',
      'r.id as run_id', 'r.flow_name as run_robot', 'r.created_at as run_created_at',
      'r.state as run_state', 'r.result as run_result', 'r.stopped_by_user as run_stopped_by_user', 'r.message as run_message', 'r.finished_at as run_finished_at',
    ]);
  if (scope.groupId !== null) query = query.where('t.group_id', '=', scope.groupId);
  return query;
}

/** One ticket the scope may see, or undefined (another firm's is as missing as one that never was). */
export async function findTicketRow(db: Kysely<Database>, scope: TicketScope, ticketId: string): Promise<TicketRow | undefined> {
  return ticketRows(db, scope).where('t.id', '=', ticketId).executeTakeFirst();
}

export function toTicket(row: TicketRow, side: TicketSide, messages?: TicketMessage[]): Ticket {
  return {
    id: row.id,
    subject: row.subject,
    category: row.category as TicketCategory,
    status: row.status,
    run: row.run_id ? { id: row.run_id, robot: row.run_robot ?? '', createdAt: row.run_created_at ?? '', ...(side === 'support' && { outcome: runOutcome(row) }) } : null,
    openedBy: { name: row.opener_name, email: row.opener_email },
    unread: Number(side === 'firm' ? row.user_unread : row.support_unread),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(side === 'support' && { firmName: row.firm_name }),
    ...(messages && { messages }),
  };
}

/** How the ticket's run ended, for the support team (who cannot open the firm's history). */
function runOutcome(row: TicketRow) {
  return { state: row.run_state ?? '', result: row.run_result, stoppedByUser: Number(row.run_stopped_by_user) === 1, message: row.run_message, finishedAt: row.run_finished_at };
}

/** A page of tickets, most recently active first. */
export async function ticketPage(db: Kysely<Database>, scope: TicketScope, page: number, status?: TicketStatus): Promise<TicketPage> {
  let counted = db.selectFrom('support_tickets').select((eb) => eb.fn.countAll<number | string>().as('total'));
  if (scope.groupId !== null) counted = counted.where('group_id', '=', scope.groupId);
  if (status) counted = counted.where('status', '=', status);
  const total = Number((await counted.executeTakeFirstOrThrow()).total);

  let rows = ticketRows(db, scope);
  if (status) rows = rows.where('t.status', '=', status);
  const items = await rows
    .orderBy('t.updated_at', 'desc')
    .orderBy('t.id', 'desc')
    .limit(TICKET_PAGE_SIZE)
    .offset((page - 1) * TICKET_PAGE_SIZE)
    .execute();
  return { items: items.map((row) => toTicket(row, scope.side)), page, pageCount: Math.ceil(total / TICKET_PAGE_SIZE), total };
}

/** The ticket's messages, oldest first, each with its attachments. */
export async function ticketMessages(db: Kysely<Database>, ticketId: string): Promise<TicketMessage[]> {
  const messages = await db
    .selectFrom('support_messages')
    .select(['id', 'author_kind', 'author_name', 'body', 'via', 'created_at'])
    .where('ticket_id', '=', ticketId)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
  if (messages.length === 0) return [];
  const attachments = await db
    .selectFrom('support_attachments')
    .select(['message_id', 'file_id', 'name', 'size'])
    .where('message_id', 'in', messages.map((message) => message.id))
    .orderBy('name', 'asc')
    .execute();
  return messages.map((message) => ({
    id: message.id,
    author: message.author_kind,
    authorName: message.author_name,
    body: message.body,
    via: message.via,
    createdAt: message.created_at,
    attachments: attachments.filter((file) => file.message_id === message.id).map((file) => ({ fileId: file.file_id, name: file.name, size: Number(file.size) })),
  }));
}

/** Support answers the firm has not read, over all its tickets (the /help badge). */
export async function firmUnread(db: Kysely<Database>, groupId: string): Promise<number> {
  const row = await db
    .selectFrom('support_tickets')
    .select((eb) => eb.fn.sum<number | string | null>('user_unread').as('unread'))
    .where('group_id', '=', groupId)
    .executeTakeFirstOrThrow();
  return Number(row.unread ?? 0);
}
