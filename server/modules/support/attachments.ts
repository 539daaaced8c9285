import type { Kysely } from 'kysely';
import { TICKET_ATTACHMENT_NOT_FOUND_MESSAGE } from '#shared/api/support.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { TicketScope } from './ticket-queries.ts';

/** A file a message will carry: one of the sender's firm's uploads, already judged by content when it was uploaded. */
export interface AttachableFile {
  id: string;
  name: string;
  size: number;
}

/**
 * The uploads named by `fileIds`, each of `groupId`'s (an upload the upload rules accepted), or a 400
 * naming none of them: another firm's file is as missing as one that never was.
 */
export async function attachableUploads(db: Kysely<Database>, groupId: string, fileIds: readonly string[] | undefined): Promise<AttachableFile[]> {
  const ids = [...new Set(fileIds ?? [])];
  if (ids.length === 0) return [];
  const files = await db
    .selectFrom('stored_files')
    .select(['id', 'name', 'size'])
    .where('id', 'in', ids)
    .where('group_id', '=', groupId)
    .where('kind', '=', 'upload')
    .where('expired_at', 'is', null)
    .execute();
  if (files.length !== ids.length) throw new HttpError(400, 'TICKET_ATTACHMENT_NOT_FOUND', TICKET_ATTACHMENT_NOT_FOUND_MESSAGE);
  // In the order they were given.
  return ids.map((id) => files.find((file) => file.id === id)).flatMap((file) => (file ? [{ id: file.id, name: file.name, size: Number(file.size) }] : []));
}

/** An attached file to stream; `stored` is null once the retention sweep deleted the upload. */
export interface TicketFile {
  name: string;
  stored: { size: number; content_type: string; storage_key: string; created_at: string; expired_at: string | null } | null;
}

/**
 * A file attached to one of the ticket's messages, when the scope may see the ticket; else undefined.
 * The file's own firm is not asked: an answer's file is the agent's upload, attached on purpose.
 */
export async function ticketFile(db: Kysely<Database>, scope: TicketScope, ticketId: string, fileId: string): Promise<TicketFile | undefined> {
  let query = db
    .selectFrom('support_attachments as a')
    .innerJoin('support_messages as m', 'm.id', 'a.message_id')
    .innerJoin('support_tickets as t', 't.id', 'm.ticket_id')
    .leftJoin('stored_files as f', 'f.id', 'a.file_id')
    .select(['a.name', 'f.id as stored_id', 'f.size', 'f.content_type', 'f.storage_key', 'f.created_at', 'f.expired_at'])
    .where('t.id', '=', ticketId)
    .where('a.file_id', '=', fileId);
  if (scope.groupId !== null) query = query.where('t.group_id', '=', scope.groupId);
  const row = await query.executeTakeFirst();
  if (!row) return undefined;
  const { stored_id, size, content_type, storage_key, created_at, expired_at } = row;
  const stored = stored_id !== null && content_type !== null && storage_key !== null && created_at !== null ? { size: Number(size), content_type, storage_key, created_at, expired_at } : null;
  return { name: row.name, stored };
}
