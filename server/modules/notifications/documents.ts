import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { NOTIFICATION_DOCUMENT_MAX_BYTES, type NotificationDocument, type RobotDocumentQuery } from '#shared/api/notifications.ts';
import { isZip } from '#shared/files/magic.ts';
import type { Database } from '../../db/schema.ts';
import { SNIFF_BYTES, sniffStart } from '../../files/sniff.ts';
import { HttpError } from '../../http/errors.ts';
import type { FileStorage } from '../storage/service.ts';
import { requireHolderOf } from './holder.ts';
import { ANNEX_TYPE_MESSAGE, DOCUMENT_NOT_FOUND_MESSAGE, DOCUMENT_NOT_PDF_MESSAGE, DOCUMENT_TOO_LARGE_MESSAGE } from './messages.ts';
import type { DeviceMember } from './watched.ts';

/** A type a stored document may have: judged by its first bytes, never by the name or the declared type. */
interface DocumentType {
  mime: string;
  /** The first is added to a name that does not end with one of them. */
  extensions: readonly string[];
  matches: (start: Uint8Array) => boolean;
}

const magic = (type: string) => (start: Uint8Array) => start.length > 0 && sniffStart(type, start) === null;

/** '%PDF-' at byte 0. */
const PDF: DocumentType = { mime: 'application/pdf', extensions: ['pdf'], matches: magic('pdf') };

/**
 * What DEHÚ delivers (research external-systems.md §1.4): PeticionAcceso's documento and ConsultaAcusePdf's
 * acuse are PDFs; an annex (ConsultaAnexos) comes with its own mimeType, so it may be a scan or a bundle:
 * a PDF, an image or a zip. None of these runs a script; XML, SVG and HTML (which can) are never stored.
 */
const ANNEX_TYPES: readonly DocumentType[] = [
  PDF,
  { mime: 'image/png', extensions: ['png'], matches: magic('png') },
  { mime: 'image/jpeg', extensions: ['jpg', 'jpeg'], matches: magic('jpg') },
  { mime: 'image/gif', extensions: ['gif'], matches: magic('gif') },
  { mime: 'image/tiff', extensions: ['tif', 'tiff'], matches: magic('tiff') },
  { mime: 'application/zip', extensions: ['zip'], matches: isZip },
];

/** A stored file that is none of those (a row from before types were enforced): served as opaque bytes. */
const OPAQUE: DocumentType = { mime: 'application/octet-stream', extensions: ['bin'], matches: () => true };

/** The type a document of this kind is stored as, or null (refused): the notice and the acuse must be PDFs. */
export function judgeDocument(kind: NotificationDocument['kind'], start: Uint8Array): DocumentType | null {
  const allowed = kind === 'anexo' ? ANNEX_TYPES : [PDF];
  return allowed.find((type) => type.matches(start)) ?? null;
}

/** The name with an extension of its type, so a download opens in the program for what it is ('x.html' -> 'x.html.pdf'). */
function nameFor(name: string, type: DocumentType): string {
  const extension = /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase();
  return extension !== undefined && type.extensions.includes(extension) ? name : `${name}.${type.extensions[0] ?? 'bin'}`;
}

function tooLarge(): HttpError {
  return new HttpError(413, 'FILE_TOO_LARGE', DOCUMENT_TOO_LARGE_MESSAGE);
}

function wrongType(kind: NotificationDocument['kind']): HttpError {
  return new HttpError(415, 'FILE_TYPE_REFUSED', kind === 'anexo' ? ANNEX_TYPE_MESSAGE : DOCUMENT_NOT_PDF_MESSAGE);
}

/**
 * The stream's first `bytes` (or all of it when shorter) and the stream as a whole again, still unread past
 * them: the content is judged before a byte reaches the disk.
 */
async function peek(file: Readable, bytes: number): Promise<{ start: Buffer; whole: () => Readable; drain: () => Promise<void> }> {
  const chunks = file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const read: Buffer[] = [];
  let length = 0;
  let ended = false;
  while (length < bytes) {
    const next = await chunks.next();
    if (next.done === true) {
      ended = true;
      break;
    }
    read.push(next.value);
    length += next.value.length;
  }
  const head = Buffer.concat(read);
  async function* rest(): AsyncGenerator<Buffer> {
    try {
      while (!ended) {
        const next = await chunks.next();
        if (next.done === true) ended = true;
        else yield next.value;
      }
    } finally {
      // Stopped early (the write failed): the upload's stream is destroyed, as a pipeline from it would be.
      if (!ended) await chunks.return?.();
    }
  }
  return {
    start: head.subarray(0, bytes),
    whole: () =>
      Readable.from(
        (async function* () {
          yield head;
          yield* rest();
        })(),
      ),
    // A refused upload is read to its end (at most the multipart cap) so the request finishes cleanly.
    drain: async () => {
      for await (const chunk of rest()) void chunk;
    },
  };
}

/**
 * Streams one document of the firm's notification to storage, hashing it as it goes, and records it; the
 * same kind and name again replaces the earlier one (row and file). Only the machine that holds the
 * notification's certificate may (403 otherwise); the content is judged on its first bytes before anything
 * is written: the notice and the acuse must be PDFs, an annex one of ANNEX_TYPES, else 415 and nothing is
 * kept. `file.truncated` is set by @fastify/multipart when its fileSize limit cut the stream.
 */
export async function storeDocument(
  db: Kysely<Database>, storage: FileStorage, device: DeviceMember, notificationId: string, query: RobotDocumentQuery,
  file: Readable & { truncated?: boolean }, now: Date,
): Promise<NotificationDocument> {
  try {
    await requireHolderOf(db, device, notificationId);
  } catch (error) {
    file.resume();
    throw error;
  }
  const upload = await peek(file, SNIFF_BYTES);
  const type = judgeDocument(query.kind, upload.start);
  if (type === null) {
    await upload.drain();
    throw wrongType(query.kind);
  }
  const name = nameFor(query.name, type);
  const { id, storageKey } = storage.newKey(device.groupId);
  const hash = createHash('sha256');
  let size = 0;
  await storage.writeStream(storageKey, upload.whole(), (chunk) => {
    size += chunk.length;
    if (size > NOTIFICATION_DOCUMENT_MAX_BYTES) throw tooLarge();
    hash.update(chunk);
  });
  if (file.truncated === true) {
    await storage.remove([storageKey]);
    throw tooLarge();
  }
  const createdAt = now.toISOString();
  let replaced: string[] = [];
  try {
    replaced = await db.transaction().execute(async (trx) => {
      const old = await trx.deleteFrom('dehu_documents').where('notification_id', '=', notificationId).where('kind', '=', query.kind).where('name', '=', name).returning('storage_key').execute();
      await trx
        .insertInto('dehu_documents')
        .values({ id, notification_id: notificationId, group_id: device.groupId, kind: query.kind, name, mime_type: type.mime, size, sha256: hash.digest('hex'), storage_key: storageKey, created_at: createdAt })
        .execute();
      return old.map((row) => row.storage_key);
    });
  } catch (error) {
    await storage.remove([storageKey]);
    throw error;
  }
  await storage.remove(replaced);
  return { _id: id, kind: query.kind, name, mimeType: type.mime, size, createdAt };
}

/** How a stored document is served: a PDF notice or acuse is shown inline (framed by the web app); everything else downloads. */
export interface ServedDocument {
  name: string;
  mimeType: string;
  disposition: 'inline' | 'attachment';
  data: Buffer;
}

/**
 * A stored document of the firm's notification, with its bytes; anything else is 404. Its type is judged
 * again from the bytes (a row stored before types were enforced may hold anything): only a notice or acuse
 * that is a PDF is inline, as application/pdf; an annex, or anything that is not a PDF, is an attachment
 * of its judged type, or application/octet-stream.
 */
export async function readDocument(db: Kysely<Database>, storage: FileStorage, groupId: string, notificationId: string, documentId: string): Promise<ServedDocument> {
  const row = await db
    .selectFrom('dehu_documents')
    .select(['kind', 'name', 'storage_key'])
    .where('group_id', '=', groupId)
    .where('notification_id', '=', notificationId)
    .where('id', '=', documentId)
    .executeTakeFirst();
  const data = row ? await storage.read(row.storage_key).catch(() => null) : null;
  if (!row || !data) throw new HttpError(404, 'DOCUMENT_NOT_FOUND', DOCUMENT_NOT_FOUND_MESSAGE);
  const start = data.subarray(0, SNIFF_BYTES);
  if (row.kind !== 'anexo' && PDF.matches(start)) return { name: nameFor(row.name, PDF), mimeType: PDF.mime, disposition: 'inline', data };
  const type = judgeDocument('anexo', start) ?? OPAQUE;
  return { name: nameFor(row.name, type), mimeType: type.mime, disposition: 'attachment', data };
}
