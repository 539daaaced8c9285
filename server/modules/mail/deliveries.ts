import type { Kysely } from 'kysely';
import type { MailDelivery } from '#shared/api/mail.ts';
import type { Database } from '../../db/schema.ts';
import type { MailOutboxTable } from '../../db/schema-mail.ts';
import type { AttachmentRef } from './mime.ts';

function toDelivery(row: Omit<MailOutboxTable, 'body'>): MailDelivery {
  const attachments = JSON.parse(row.attachments) as AttachmentRef[];
  return {
    _id: row.id,
    kind: row.kind,
    to: JSON.parse(row.to_addresses) as string[],
    subject: row.subject,
    transport: row.transport,
    from: row.from_address,
    attachments: attachments.map(({ name, size }) => ({ name, size })),
    state: row.state,
    attempts: Number(row.attempts),
    providerMessageId: row.provider_message_id,
    error: row.last_error,
    createdAt: row.created_at,
    sentAt: row.sent_at,
    // Only a pending row has a next attempt.
    nextAttemptAt: row.state === 'pending' ? row.next_attempt_at : null,
  };
}

/**
 * The messages a run caused, oldest first, without their bodies; null when the run is not the
 * caller's firm's (the same rule as the run's own detail in the history: its group).
 */
export async function runDeliveries(db: Kysely<Database>, groupId: string, runId: string): Promise<MailDelivery[] | null> {
  const run = await db.selectFrom('flow_runs').select('id').where('id', '=', runId).where('group_id', '=', groupId).executeTakeFirst();
  if (!run) return null;
  const rows = await db
    .selectFrom('mail_outbox')
    .select([
      'id', 'group_id', 'user_id', 'cause_key', 'run_id', 'kind', 'account_id', 'transport', 'from_address', 'to_addresses', 'subject', 'reply_to', 'sender_name',
      'attachments', 'state', 'attempts', 'next_attempt_at', 'provider_message_id', 'last_error', 'created_at', 'updated_at', 'sent_at',
    ])
    .where('run_id', '=', runId)
    .where('group_id', '=', groupId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toDelivery);
}
