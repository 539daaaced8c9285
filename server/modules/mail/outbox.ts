import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { MailOutboxTable } from '../../db/schema-mail.ts';
import type { AttachmentRef } from './mime.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** After this many attempts a retryable failure becomes 'failed'. */
export const MAX_ATTEMPTS = 6;
const MINUTE_MS = 60_000;
const BACKOFF_CAP_MS = 60 * MINUTE_MS;
/** A 'sending' row untouched this long belongs to a process that died mid-attempt. */
export const STALE_SENDING_MS = 10 * MINUTE_MS;
export const INTERRUPTED_MESSAGE = 'El servidor se detuvo durante el envío; puede que llegara. No se reintenta para no enviarlo dos veces.';
export const OUT_OF_ATTEMPTS_SUFFIX = `; se dejó de intentar tras ${MAX_ATTEMPTS} intentos`;

export interface NewMail {
  groupId: string;
  userId: string | null;
  /** 'run-result:<runId>', 'run-notice:<runId>'…: one cause, one message, ever. */
  causeKey: string;
  runId: string | null;
  kind: MailOutboxTable['kind'];
  accountId: string | null;
  transport: MailOutboxTable['transport'];
  from: string | null;
  to: readonly string[];
  subject: string;
  body: string;
  replyTo: string | null;
  senderName: string | null;
  attachments: readonly AttachmentRef[];
}

function row(mail: NewMail, now: Date) {
  const at = now.toISOString();
  return {
    id: randomUUID(),
    group_id: mail.groupId,
    user_id: mail.userId,
    cause_key: mail.causeKey,
    run_id: mail.runId,
    kind: mail.kind,
    account_id: mail.accountId,
    transport: mail.transport,
    from_address: mail.from,
    to_addresses: JSON.stringify(mail.to),
    subject: mail.subject,
    body: mail.body,
    reply_to: mail.replyTo,
    sender_name: mail.senderName,
    attachments: JSON.stringify(mail.attachments),
    created_at: at,
    updated_at: at,
  };
}

/**
 * Queues a message, due at once. Insert-or-nothing on the cause key, so a cause queued twice (a retried
 * pass, two processes) keeps its first row. Answers whether this call queued it.
 */
export async function enqueueMail(db: Db, mail: NewMail, now: Date): Promise<boolean> {
  const result = await db
    .insertInto('mail_outbox')
    .values({ ...row(mail, now), state: 'pending', attempts: 0, next_attempt_at: now.toISOString() })
    .onConflict((conflict) => conflict.column('cause_key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** Records a message that cannot be sent (no usable config or account) so the history says why; the cause key stops repeats. */
export async function recordUnsendable(db: Db, mail: NewMail, error: string, now: Date): Promise<boolean> {
  const result = await db
    .insertInto('mail_outbox')
    .values({ ...row(mail, now), state: 'failed', attempts: 0, next_attempt_at: null, last_error: error })
    .onConflict((conflict) => conflict.column('cause_key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** Ids of rows due now, oldest due first. */
export async function dueIds(db: Kysely<Database>, now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('mail_outbox')
    .select('id')
    .where('state', '=', 'pending')
    .where('next_attempt_at', '<=', now.toISOString())
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((item) => item.id);
}

/**
 * Takes a due row for one attempt: a guarded UPDATE that only one process wins (the row must still be
 * pending and due). Answers the row as claimed, or null when another process took it.
 */
export async function claim(db: Kysely<Database>, id: string, now: Date): Promise<MailOutboxTable | null> {
  const at = now.toISOString();
  const result = await db
    .updateTable('mail_outbox')
    .set((eb) => ({ state: 'sending', attempts: eb('attempts', '+', 1), updated_at: at }))
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .where('next_attempt_at', '<=', at)
    .returningAll()
    .executeTakeFirst();
  return result ?? null;
}

/** Only the attempt that holds the row (state 'sending') may close it. */
async function close(db: Kysely<Database>, id: string, values: Partial<Omit<MailOutboxTable, 'id'>>): Promise<void> {
  await db.updateTable('mail_outbox').set(values).where('id', '=', id).where('state', '=', 'sending').execute();
}

export async function markSent(db: Kysely<Database>, id: string, providerMessageId: string | null, now: Date): Promise<void> {
  const at = now.toISOString();
  await close(db, id, { state: 'sent', provider_message_id: providerMessageId, sent_at: at, updated_at: at, next_attempt_at: null, last_error: null });
}

export async function markFailed(db: Kysely<Database>, id: string, error: string, now: Date): Promise<void> {
  await close(db, id, { state: 'failed', last_error: error, updated_at: now.toISOString(), next_attempt_at: null });
}

/** An attempt that may have reached the provider: 'unknown', never tried again. */
export async function markUnknown(db: Kysely<Database>, id: string, error: string, now: Date): Promise<void> {
  await close(db, id, { state: 'unknown', last_error: error, updated_at: now.toISOString(), next_attempt_at: null });
}

/**
 * The wait before attempt `attempts + 1`: the provider's Retry-After when it gave one, else 1, 2, 4…
 * minutes capped at an hour, plus up to a fifth more at random so retries of many rows spread out.
 */
export function retryDelayMs(attempts: number, retryAfterMs: number | null, random: () => number = Math.random): number {
  if (retryAfterMs !== null) return Math.min(retryAfterMs, BACKOFF_CAP_MS * 24);
  const base = Math.min(MINUTE_MS * 2 ** Math.max(0, attempts - 1), BACKOFF_CAP_MS);
  return Math.round(base * (1 + random() * 0.2));
}

export async function markRetry(db: Kysely<Database>, id: string, error: string, delayMs: number, now: Date): Promise<void> {
  await close(db, id, { state: 'pending', last_error: error, updated_at: now.toISOString(), next_attempt_at: new Date(now.getTime() + delayMs).toISOString() });
}

/**
 * Rows a dead process left 'sending' become 'unknown', never retried: the provider may have taken the
 * message before the process died. `all`: every such row (SQLite, one process: none is under way at start).
 */
export async function markInterrupted(db: Kysely<Database>, now: Date, all: boolean): Promise<number> {
  let query = db.updateTable('mail_outbox').set({ state: 'unknown', last_error: INTERRUPTED_MESSAGE, updated_at: now.toISOString(), next_attempt_at: null }).where('state', '=', 'sending');
  if (!all) query = query.where('updated_at', '<', new Date(now.getTime() - STALE_SENDING_MS).toISOString());
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}
