import type { Readable } from 'node:stream';
import { ALLOWED_FILE_TYPES, claimedFileType } from '#shared/files/index.ts';
import { FileRefusal } from '../../files/errors.ts';
import { contentMatches, StartSniffer } from '../../files/sniff.ts';
import { HttpError } from '../../http/errors.ts';
import type { FileStorage } from '../storage/service.ts';

/** An uploaded file's limits and the Spanish refusals for it. */
export interface UploadRule {
  /** The types a name may claim (claimedFileType's: 'png', 'jpg', 'pdf'…); the content must then be that type. */
  types: readonly string[];
  maxBytes: number;
  /** The refusal past maxBytes (413). */
  tooLarge: () => HttpError;
  /** Whether this many bytes still fit other caps (null), or their refusal: the upload stops there. */
  fits?: (bytes: number) => HttpError | null;
  /** Which types are taken (Spanish), said with every type refusal. */
  typesMessage: string;
}

/** 415: the name claims a type not taken here, or the content is not what the name says (README: one rule for every upload). */
export function wrongFileType(typesMessage: string, reason?: string): HttpError {
  return new HttpError(415, 'FILE_TYPE_REFUSED', reason === undefined ? typesMessage : `${reason}. ${typesMessage}`);
}

/**
 * Streams one multipart file to storage (never held whole in memory) and judges it as every upload is
 * (modules/storage/routes.ts): the type its name claims must be taken here, its first bytes are
 * checked while it streams (server/files/sniff.ts) and the stored file by file-type once it ends.
 * Over the cap (413) or of another type (415), nothing of it stays on disk.
 * `file.truncated` is set by @fastify/multipart when its fileSize limit cut the stream.
 */
export async function receiveFile(storage: FileStorage, storageKey: string, fileName: string, file: Readable & { truncated?: boolean }, rule: UploadRule): Promise<{ size: number; contentType: string }> {
  const type = claimedFileType(fileName);
  if (type === null || !rule.types.includes(type)) {
    file.resume();
    throw wrongFileType(rule.typesMessage);
  }
  const sniffer = new StartSniffer(type);
  let size = 0;
  try {
    await storage.writeStream(storageKey, file, (chunk) => {
      size += chunk.length;
      if (size > rule.maxBytes) throw rule.tooLarge();
      const refusal = rule.fits?.(size) ?? null;
      if (refusal) throw refusal;
      sniffer.push(chunk);
    });
    if (file.truncated === true) throw rule.tooLarge();
    sniffer.finish();
    const reason = await contentMatches(type, storage.pathOf(storageKey));
    if (reason !== null) throw wrongFileType(rule.typesMessage, reason);
  } catch (error) {
    // writeStream removes a partial file it stopped; a whole file refused afterwards is removed here.
    file.resume();
    await storage.remove([storageKey]);
    if (error instanceof FileRefusal) throw wrongFileType(rule.typesMessage, error.message);
    throw error;
  }
  return { size, contentType: ALLOWED_FILE_TYPES[type]?.[0] ?? 'application/octet-stream' };
}
