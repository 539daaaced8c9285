import type { FieVersion } from '#shared/fie/types.ts';
import type { EntryFacts } from './entries.ts';

/** What the decoding process is asked to read (its argument, as JSON). */
export interface FieDecodeJob {
  path: string;
  /** Judged by the parent from the content: a text FIE (its header read) or an Excel workbook. */
  format: 'text' | 'excel';
  /** Entries per message. */
  batchSize: number;
}

/**
 * Child -> parent. Entries travel as the columns of their rows, worked out in the child (hashes, folded
 * search text, fields as JSON), so the server's event loop only inserts them. The child keeps at most
 * BATCHES_IN_FLIGHT batches unanswered by the parent's `continue`: it decodes the next batch while the
 * parent stores one, and the parent (which sets the pace) never holds more than that of a big file.
 */
export const BATCHES_IN_FLIGHT = 2;

export type FieDecodeMessage =
  | { type: 'batch'; entries: EntryFacts[] }
  | { type: 'done'; ignored: boolean; reason: string | null; version: FieVersion | null; registryDate: string | null; entries: number }
  | { type: 'failed'; reason: string };

/** Parent -> child. */
export type FieDecodeReply = { type: 'continue' };
