import type { UploadedFile } from '#shared/api/flows.ts';
import { support as text } from '../i18n/es-support.ts';
import { UploadError, uploadToStorage, type StorageUploadOptions } from './storageUpload.ts';

/** A file the server did not keep: the HTTP status (0 when nothing answered) and why, in Spanish. */
export { UploadError as UploadRefused } from './storageUpload.ts';

export type AttachmentUploadOptions = Pick<StorageUploadOptions, 'onProgress' | 'signal' | 'createRequest'>;

const MESSAGES = { failed: text.attachments.failed, cancelled: text.attachments.cancelled, sessionExpired: text.attachments.sessionExpired };

/**
 * Uploads one attachment to storage (the launcher's rules: ≤ 100 MB, judged by content) and answers the
 * stored file. One at a time, so each file shows its own progress and its own refusal.
 */
export async function uploadAttachment(file: File, options: AttachmentUploadOptions = {}): Promise<UploadedFile> {
  const [stored] = await uploadToStorage([file], MESSAGES, options);
  // Storage answers 201 with the files it kept: none is a failure.
  if (stored === undefined) throw new UploadError(201, text.attachments.failed);
  return stored;
}
