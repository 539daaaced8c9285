import type { UploadedFile } from '#shared/api/flows.ts';
import { uploadToStorage, type StorageUploadOptions } from '../../api/storageUpload.ts';
import { launcher as text } from '../../i18n/es-launcher.ts';

export { UploadError } from '../../api/storageUpload.ts';
export type UploadOptions = StorageUploadOptions;

const MESSAGES = { failed: text.inputs.uploadFailed, cancelled: text.inputs.uploadFailed, sessionExpired: text.inputs.sessionExpired };

/**
 * Uploads files to storage before a launch and answers the stored files by id (api/storageUpload.ts:
 * one refresh and retry on a 401, the server's Spanish message for any other refusal).
 */
export function uploadFiles(files: readonly File[], options: UploadOptions = {}): Promise<UploadedFile[]> {
  return uploadToStorage(files, MESSAGES, options);
}
