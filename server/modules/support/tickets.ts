import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import { TICKET_NOT_FOUND_MESSAGE, TICKET_RUN_NOT_FOUND_MESSAGE, type NewReply, type NewTicket, type Ticket, type TicketPage, type TicketStatus } from '#shared/api/support.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { attachableUploads, ticketFile, type AttachableFile, type TicketFile } from './attachments.ts';
import type { SupportConfig } from './config.ts';
import { TicketMail } from './ticket-mail.ts';
import { findTicketRow, firmUnread, ticketMessages, ticketPage, toTicket, type TicketRow, type TicketScope } from './ticket-queries.ts';

export interface SupportTicketsDeps {
  db: Kysely<Database>;
  now: () => Date;
  mailer: Mailer;
  publicUrl: string;
  support: SupportConfig;
  log: FastifyBaseLogger;
}

/** Who writes: a signed-in user of a firm. */
export interface Writer {
  userId: string;
  groupId: string;
}

/** A member of the support team: users.support_agent = 1 and not removed. Its uploads are its own firm's. */
export interface SupportAgent {
  id: string;
  name: string;
  groupId: string;
}

/** One message about to be kept, with what the ticket becomes. */
interface NewMessage {
  author: 'user' | 'support';
  authorUserId: string;
  authorName: string;
  body: string;
  via: 'app' | 'email';
  emailMessageId?: string;
  files: AttachableFile[];
}

const firmScope = (groupId: string): TicketScope => ({ side: 'firm', groupId });
const SUPPORT_SCOPE: TicketScope = { side: 'support', groupId: null };

export function ticketNotFound(): HttpError {
  return new HttpError(404, 'TICKET_NOT_FOUND', TICKET_NOT_FOUND_MESSAGE);
}

/**
 * Support tickets (issue 26): a firm's questions and the support team's answers. Every member of a
 * firm sees the firm's tickets and nobody else's; the team sees every firm's. Each side counts what
 * it has not read. Emails go after the write commits (TicketMail), so a failed send loses nothing.
 */
export class SupportTickets {
  private readonly mail: TicketMail;

  constructor(readonly deps: SupportTicketsDeps) {
    this.mail = new TicketMail(deps);
  }

  // The firm's side.

  list(groupId: string, page: number, status?: TicketStatus): Promise<TicketPage> {
    return ticketPage(this.deps.db, firmScope(groupId), page, status);
  }

  /** One of the firm's tickets with its messages; reading it marks the answers read. */
  async get(groupId: string, ticketId: string): Promise<Ticket> {
    const { db } = this.deps;
    const row = await this.ticketRow(firmScope(groupId), ticketId);
    if (Number(row.user_unread) > 0) {
      await db.updateTable('support_tickets').set({ user_unread: 0 }).where('id', '=', ticketId).execute();
      row.user_unread = 0;
    }
    return toTicket(row, 'firm', await ticketMessages(db, ticketId));
  }

  unread(groupId: string): Promise<number> {
    return firmUnread(this.deps.db, groupId);
  }

  async create(writer: Writer, input: NewTicket): Promise<Ticket> {
    const { db } = this.deps;
    if (input.runId !== undefined) await this.checkRun(writer.groupId, input.runId);
    const files = await attachableUploads(db, writer.groupId, input.attachmentIds);
    const author = await this.userName(writer.userId);
    const ticketId = randomUUID();
    const at = this.deps.now().toISOString();
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('support_tickets')
        .values({ id: ticketId, group_id: writer.groupId, user_id: writer.userId, subject: input.subject, category: input.category, run_id: input.runId ?? null, status: 'open', user_unread: 0, support_unread: 1, created_at: at, updated_at: at })
        .execute();
      await insertMessage(trx, ticketId, at, { author: 'user', authorUserId: writer.userId, authorName: author.name, body: input.body, via: 'app', files });
    });
    const row = await this.ticketRow(firmScope(writer.groupId), ticketId);
    await this.mail.received(row, { authorName: author.name, authorEmail: author.email, body: input.body, attachments: files.length }, true);
    return toTicket(row, 'firm', await ticketMessages(db, ticketId));
  }

  /** The firm writes again: the ticket waits for support once more, even if it was closed. */
  async reply(writer: Writer, ticketId: string, input: NewReply): Promise<Ticket> {
    const { db } = this.deps;
    const before = await this.ticketRow(firmScope(writer.groupId), ticketId);
    const files = await attachableUploads(db, writer.groupId, input.attachmentIds);
    const author = await this.userName(writer.userId);
    await db.transaction().execute(async (trx) => {
      const at = laterThan(before.updated_at, this.deps.now());
      await insertMessage(trx, ticketId, at, { author: 'user', authorUserId: writer.userId, authorName: author.name, body: input.body, via: 'app', files });
      await trx
        .updateTable('support_tickets')
        .set((eb) => ({ status: 'open', support_unread: eb('support_unread', '+', 1), updated_at: at }))
        .where('id', '=', ticketId)
        .execute();
    });
    const row = await this.ticketRow(firmScope(writer.groupId), ticketId);
    await this.mail.received(row, { authorName: author.name, authorEmail: author.email, body: input.body, attachments: files.length }, false);
    return toTicket(row, 'firm', await ticketMessages(db, ticketId));
  }

  /** A file attached to one of the ticket's messages (the firm's own ticket, or any for the team). */
  async attachment(groupId: string | null, ticketId: string, fileId: string): Promise<TicketFile | undefined> {
    return ticketFile(this.deps.db, groupId === null ? SUPPORT_SCOPE : firmScope(groupId), ticketId, fileId);
  }

  // The support team's side.

  /** The user as a support agent, or null: anyone else is told the team's paths do not exist. */
  async agent(userId: string): Promise<SupportAgent | null> {
    return this.findAgent('id', userId);
  }

  agentByEmail(email: string): Promise<SupportAgent | null> {
    return this.findAgent('email', email.toLowerCase());
  }

  private async findAgent(by: 'id' | 'email', value: string): Promise<SupportAgent | null> {
    const row = await this.deps.db
      .selectFrom('users')
      .select(['id', 'name', 'group_id'])
      .where(by, '=', value)
      .where('support_agent', '=', 1)
      .where('disabled_at', 'is', null)
      .executeTakeFirst();
    return row ? { id: row.id, name: row.name, groupId: row.group_id } : null;
  }

  adminList(page: number, status?: TicketStatus): Promise<TicketPage> {
    return ticketPage(this.deps.db, SUPPORT_SCOPE, page, status);
  }

  /** Any firm's ticket with its messages; reading it marks the firm's messages read. */
  async adminGet(ticketId: string): Promise<Ticket> {
    const { db } = this.deps;
    const row = await this.ticketRow(SUPPORT_SCOPE, ticketId);
    if (Number(row.support_unread) > 0) {
      await db.updateTable('support_tickets').set({ support_unread: 0 }).where('id', '=', ticketId).execute();
      row.support_unread = 0;
    }
    return toTicket(row, 'support', await ticketMessages(db, ticketId));
  }

  /** An answer from the desk; files are the agent's own uploads. */
  async adminReply(agent: SupportAgent, ticketId: string, input: NewReply): Promise<Ticket> {
    const before = await this.ticketRow(SUPPORT_SCOPE, ticketId);
    const files = await attachableUploads(this.deps.db, agent.groupId, input.attachmentIds);
    await this.answer(before, { author: 'support', authorUserId: agent.id, authorName: agent.name, body: input.body, via: 'app', files });
    return this.adminTicket(ticketId);
  }

  async setStatus(ticketId: string, status: TicketStatus): Promise<Ticket> {
    const before = await this.ticketRow(SUPPORT_SCOPE, ticketId);
    if (before.status !== status) {
      await this.deps.db.updateTable('support_tickets').set({ status, updated_at: laterThan(before.updated_at, this.deps.now()) }).where('id', '=', ticketId).execute();
    }
    return this.adminTicket(ticketId);
  }

  /**
   * An answer, from the desk or by email: kept with the ticket now waiting for the user (who has one
   * more unread answer), the firm's messages counted as read, and the opener emailed. With an
   * email's Message-ID, false when that message was already kept (a redelivery): nothing new then.
   */
  async answer(before: TicketRow, message: NewMessage): Promise<boolean> {
    try {
      await this.deps.db.transaction().execute(async (trx) => {
        const at = laterThan(before.updated_at, this.deps.now());
        await insertMessage(trx, before.id, at, message);
        await trx
          .updateTable('support_tickets')
          .set((eb) => ({ status: 'answered', user_unread: eb('user_unread', '+', 1), support_unread: 0, updated_at: at }))
          .where('id', '=', before.id)
          .execute();
      });
    } catch (error) {
      // Two deliveries of one email at once: the unique Message-ID lets one in; the other changed nothing.
      if (message.emailMessageId !== undefined && (await this.emailKept(message.emailMessageId))) return false;
      throw error;
    }
    await this.mail.answered(before, { authorName: message.authorName, body: message.body });
    return true;
  }

  async emailKept(emailMessageId: string): Promise<boolean> {
    const row = await this.deps.db.selectFrom('support_messages').select('id').where('email_message_id', '=', emailMessageId).executeTakeFirst();
    return row !== undefined;
  }

  /** Any firm's ticket, for the team; undefined when there is none. */
  findAnyTicket(ticketId: string): Promise<TicketRow | undefined> {
    return findTicketRow(this.deps.db, SUPPORT_SCOPE, ticketId);
  }

  private async adminTicket(ticketId: string): Promise<Ticket> {
    return toTicket(await this.ticketRow(SUPPORT_SCOPE, ticketId), 'support', await ticketMessages(this.deps.db, ticketId));
  }

  private async ticketRow(scope: TicketScope, ticketId: string): Promise<TicketRow> {
    const row = await findTicketRow(this.deps.db, scope, ticketId);
    if (!row) throw ticketNotFound();
    return row;
  }

  private async checkRun(groupId: string, runId: string): Promise<void> {
    const run = await this.deps.db.selectFrom('flow_runs').select('id').where('id', '=', runId).where('group_id', '=', groupId).executeTakeFirst();
    if (!run) throw new HttpError(400, 'TICKET_RUN_NOT_FOUND', TICKET_RUN_NOT_FOUND_MESSAGE);
  }

  private userName(userId: string): Promise<{ name: string; email: string }> {
    return this.deps.db.selectFrom('users').select(['name', 'email']).where('id', '=', userId).executeTakeFirstOrThrow();
  }
}

async function insertMessage(trx: Transaction<Database>, ticketId: string, at: string, message: NewMessage): Promise<void> {
  const messageId = randomUUID();
  await trx
    .insertInto('support_messages')
    .values({ id: messageId, ticket_id: ticketId, author_kind: message.author, author_user_id: message.authorUserId, author_name: message.authorName, body: message.body, via: message.via, email_message_id: message.emailMessageId ?? null, created_at: at })
    .execute();
  if (message.files.length > 0) {
    await trx
      .insertInto('support_attachments')
      .values(message.files.map((file) => ({ id: randomUUID(), message_id: messageId, file_id: file.id, name: file.name, size: file.size })))
      .execute();
  }
}

/**
 * Now, or a millisecond after the ticket's last change when the clock has not moved on: a ticket's
 * messages then always read in the order they were written.
 */
function laterThan(previous: string, now: Date): string {
  const floor = Date.parse(previous) + 1;
  return new Date(Math.max(now.getTime(), floor)).toISOString();
}
