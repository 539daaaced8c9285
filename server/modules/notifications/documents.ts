import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { fileTypeFromFile } from 'file-type';
import type { Kysely } from 'kysely';
import { NOTIFICATION_DOCUMENT_MAX_BYTES, type NotificationDocument, type RobotDocumentQuery } from '#shared/api/notifications.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { FileStorage } from '../storage/service.ts';
import { DOCUMENT_NOT_FOUND_MESSAGE, DOCUMENT_TOO_LARGE_MESSAGE, DOCUMENT_TYPE_MESSAGE } from './messages.ts';
import { notificationNotFound } from './queries.ts';
import type { DeviceMember } from './watched.ts';

/** What DEHÚ hands out: the notice and acuse (PDF), annexes (PDF, images, XML, zip). Judged by the bytes. */
const DOCUMENT_TYPES: readonly string[] = ['application/pdf', 'image/png', 'image/jpeg', 'image/tiff', 'image/gif', 'application/xml', 'application/zip'];

function tooLarge(): HttpError {
  return new HttpError(413, 'FILE_TOO_LARGE', DOCUMENT_TOO_LARGE_MESSAGE);
}

/**
 * Streams one document of the firm's notification to storage, hashing it as it goes, judges it by its
 * content and records it; the same kind and name again replaces the earlier one (row and file).
 * `file.truncated` is set by @fastify/multipart when its fileSize limit cut the stream.
 */
export async function storeDocument(
  db: Kysely<Database>, storage: FileStorage, device: DeviceMember, notificationId: string, query: RobotDocumentQuery,
  file: Readable & { truncated?: boolean }, now: Date,
): Promise<NotificationDocument> {
  const notification = await db.selectFrom('dehu_notifications').select('id').where('group_id', '=', device.groupId).where('id', '=', notificationId).executeTakeFirst();
  if (!notification) {
    file.resume();
    throw notificationNotFound();
  }
  const { id, storageKey } = storage.newKey(device.groupId);
  const hash = createHash('sha256');
  let size = 0;
  await storage.writeStream(storageKey, file, (chunk) => {
    size += chunk.length;
    if (size > NOTIFICATION_DOCUMENT_MAX_BYTES) throw tooLarge();
    hash.update(chunk);
  });
  if (file.truncated === true) {
    await storage.remove([storageKey]);
    throw tooLarge();
  }
  const found = await fileTypeFromFile(storage.pathOf(storageKey)).catch(() => undefined);
  if (found === undefined || !DOCUMENT_TYPES.includes(found.mime)) {
    await storage.remove([storageKey]);
    throw new HttpError(400, 'FILE_TYPE', DOCUMENT_TYPE_MESSAGE);
  }
  const createdAt = now.toISOString();
  let replaced: string[] = [];
  try {
    replaced = await db.transaction().execute(async (trx) => {
      const old = await trx.deleteFrom('dehu_documents').where('notification_id', '=', notificationId).where('kind', '=', query.kind).where('name', '=', query.name).returning('storage_key').execute();
      await trx
        .insertInto('dehu_documents')
        .values({ id, notification_id: notificationId, group_id: device.groupId, kind: query.kind, name: query.name, mime_type: found.mime, size, sha256: hash.digest('hex'), storage_key: storageKey, created_at: createdAt })
        .execute();
      return old.map((row) => row.storage_key);
    });
  } catch (error) {
    await storage.remove([storageKey]);
    throw error;
  }
  await storage.remove(replaced);
  return { _id: id, kind: query.kind, name: query.name, mimeType: found.mime, size, createdAt };
}

/** A stored document of the firm's notification, with its bytes; anything else is 404. */
export async function readDocument(db: Kysely<Database>, storage: FileStorage, groupId: string, notificationId: string, documentId: string): Promise<{ name: string; mimeType: string; data: Buffer }> {
  const row = await db
    .selectFrom('dehu_documents')
    .select(['name', 'mime_type', 'storage_key'])
    .where('group_id', '=', groupId)
    .where('notification_id', '=', notificationId)
    .where('id', '=', documentId)
    .executeTakeFirst();
  const data = row ? await storage.read(row.storage_key).catch(() => null) : null;
  if (!row || !data) throw new HttpError(404, 'DOCUMENT_NOT_FOUND', DOCUMENT_NOT_FOUND_MESSAGE);
  return { name: row.name, mimeType: row.mime_type, data };
}
