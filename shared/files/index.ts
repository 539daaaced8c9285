export { DEFAULT_MAX_UPLOAD_BYTES, checkUploadSize, formatBytes } from './size.ts';
export type { FileSizeExceeded, UploadSizeOptions } from './size.ts';
export { ALLOWED_EXTENSIONS, ALLOWED_FILE_TYPES, DEFAULT_ACCEPT, acceptedTypesText, claimedFileType, fileExtension, filterAcceptedFiles, isAcceptedFile } from './types.ts';
export type { PickedFile } from './types.ts';
export { MAX_FILENAME_LENGTH, normalizeFilename } from './filename.ts';
