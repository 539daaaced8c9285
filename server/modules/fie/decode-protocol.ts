import type { FieFields, FieVersion } from '#shared/fie/types.ts';

/** What the decoding process is asked to read (its argument, as JSON). */
export interface FieDecodeJob {
  path: string;
  /** Judged by the parent from the content: a text FIE (its header read) or an Excel workbook. */
  format: 'text' | 'excel';
  /** Entries per message. */
  batchSize: number;
}

/**
 * Child -> parent. `batch` waits for the parent's `continue` before more is read, so the parent (which
 * inserts each batch) sets the pace and never holds more than one batch of a big file.
 */
export type FieDecodeMessage =
  | { type: 'batch'; entries: FieFields[] }
  | { type: 'done'; ignored: boolean; reason: string | null; version: FieVersion | null; registryDate: string | null; entries: number }
  | { type: 'failed'; reason: string };

/** Parent -> child. */
export type FieDecodeReply = { type: 'continue' };
