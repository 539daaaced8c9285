import type { Readable } from 'node:stream';
import { fileTypeFromFile } from 'file-type';
import { HttpError } from '../../http/errors.ts';
import type { FileStorage } from '../storage/service.ts';

/** An uploaded file's limits and the Spanish refusals for it. */
export interface UploadRule {
  maxBytes: number;
  types: readonly string[];
  tooLargeMessage: string;
  wrongTypeMessage: string;
}

/**
 * Streams one multipart file to storage (never held whole in memory) and judges it by its bytes, not
 * its name or the browser's claim: over the cap or of another type, the file is removed and a 400 thrown.
 * `file.truncated` is set by @fastify/multipart when its fileSize limit cut the stream.
 */
export async function receiveFile(storage: FileStorage, storageKey: string, file: Readable & { truncated?: boolean }, rule: UploadRule): Promise<{ size: number; contentType: string }> {
  let size = 0;
  await storage.writeStream(storageKey, file, (chunk) => {
    size += chunk.length;
    if (size > rule.maxBytes) throw new HttpError(400, 'FILE_TOO_LARGE', rule.tooLargeMessage);
  });
  if (file.truncated === true) {
    await storage.remove([storageKey]);
    throw new HttpError(400, 'FILE_TOO_LARGE', rule.tooLargeMessage);
  }
  const found = await fileTypeFromFile(storage.pathOf(storageKey)).catch(() => undefined);
  if (found === undefined || !rule.types.includes(found.mime)) {
    await storage.remove([storageKey]);
    throw new HttpError(400, 'FILE_TYPE', rule.wrongTypeMessage);
  }
  return { size, contentType: found.mime };
}
