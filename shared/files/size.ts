/** Upload size limit (spec §5 Uploads, §9): sizes in base-1000 units, default 100 MB. */

export const DEFAULT_MAX_UPLOAD_BYTES = 100_000_000;

const UNITS = ['B', 'kB', 'MB', 'GB', 'TB'] as const;

/** Human size in base-1000 units with the es-ES decimal comma: '120 MB', '1,5 kB', '999 B'. */
export function formatBytes(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  // Round first: 999,96 kB must read '1 MB', not '1000 kB'.
  if (Number(value.toFixed(1)) >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${new Intl.NumberFormat('es-ES', { maximumFractionDigits: 1 }).format(value)} ${UNITS[unit]}`;
}

export interface FileSizeExceeded {
  code: 'filesizeexceeded';
  actualBytes: number;
  limitBytes: number;
  /** e.g. '120 MB' */
  actual: string;
  /** e.g. '100 MB' */
  limit: string;
}

export interface UploadSizeOptions {
  maxSize?: number;
  /** The desktop app reads files from disk, so it does not limit their size. */
  embedded?: boolean;
  /** false turns the check off. */
  check?: boolean;
}

/** Checks the total size of the selected files; null when the upload may go ahead. */
export function checkUploadSize(files: readonly { size: number }[], options: UploadSizeOptions = {}): FileSizeExceeded | null {
  const { maxSize = DEFAULT_MAX_UPLOAD_BYTES, embedded = false, check = true } = options;
  if (!check || embedded) return null;
  const total = files.reduce((sum, file) => sum + file.size, 0);
  if (total <= maxSize) return null;
  return { code: 'filesizeexceeded', actualBytes: total, limitBytes: maxSize, actual: formatBytes(total), limit: formatBytes(maxSize) };
}
