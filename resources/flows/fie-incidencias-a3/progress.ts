import { segmentEnd } from '#shared/fie/layout.ts';
import type { RobotContext } from '#shared/flows/robot.ts';

/**
 * Bytes of an entry as SILTRA writes it (EMP, RZS, TRA, AYN, DAF, DIT and ITD at their full fixed width,
 * CRLF): how many entries a text FIE holds is guessed from its size with this until its own entries say.
 */
const ESTIMATED_ENTRY_BYTES = (['EMP', 'RZS', 'TRA', 'AYN', 'DAF', 'DIT', 'ITD'] as const).reduce((sum, tag) => sum + segmentEnd(tag) + 2, 0);

/** Progress is reported about this many times per run. */
const PROGRESS_STEPS = 200;

/**
 * Progress in entries out of an honest estimate of the total: entries of files already read, plus the
 * file being read guessed from its size and the entries its chunks decoded so far gave (only whole chunks
 * count: halfway through the first one, one entry out of 256 KiB would say nothing), plus the files still
 * to read guessed from their size and the bytes per entry seen so far (ESTIMATED_ENTRY_BYTES before any).
 * Each file's guess is replaced by its count when it ends; the last report (finish) is the run's figures.
 * Reported about PROGRESS_STEPS times, as progressReporter does.
 */
export class EntryProgress {
  private done = 0;
  private entriesBefore = 0;
  private current = -1;
  private currentEntries = 0;
  private currentBytes = 0;
  /** Entries decoded when the last whole chunk had been written. */
  private entriesAtChunkEnd = 0;
  /** Bytes and entries of the text files read so far, for the bytes per entry. */
  private seenBytes = 0;
  private seenEntries = 0;
  private nextReport = 1;
  private readonly skipped = new Set<number>();

  constructor(
    private readonly context: Pick<RobotContext, 'progress'>,
    private readonly sizes: readonly number[],
  ) {}

  startFile(index: number): void {
    this.current = index;
    this.currentEntries = 0;
    this.currentBytes = 0;
    this.entriesAtChunkEnd = 0;
  }

  /** A chunk of `count` bytes has been decoded. */
  chunk(count: number): void {
    this.currentBytes += count;
    this.entriesAtChunkEnd = this.currentEntries;
  }

  entry(): void {
    this.done += 1;
    this.currentEntries += 1;
    if (this.done >= this.nextReport) this.report();
  }

  /** The file ended (read, or not a FIE) with its entries counted; `text`: its bytes tell the bytes per entry. */
  endFile(text: boolean): void {
    if (text && this.currentEntries > 0) {
      this.seenBytes += this.currentBytes;
      this.seenEntries += this.currentEntries;
    }
    this.entriesBefore += this.currentEntries;
    this.currentEntries = 0;
    this.currentBytes = 0;
    this.entriesAtChunkEnd = 0;
  }

  /** A file that will not be read (the same as an earlier one). */
  skip(index: number): void {
    this.skipped.add(index);
  }

  /**
   * The last report, which is the run's figures rather than its progress (the history's 'Sin errores',
   * the result mail's 'N filas comprobadas, M con errores'): `passed` of `passed + withErrors` checked.
   */
  finish(passed: number, withErrors: number): void {
    this.context.progress(passed, passed + withErrors);
  }

  private report(): void {
    const total = this.total();
    this.context.progress(this.done, total);
    this.nextReport = this.done + Math.max(1, Math.ceil(total / PROGRESS_STEPS));
  }

  private total(): number {
    const chunked = this.entriesAtChunkEnd > 0;
    const seen = this.seenEntries + (chunked ? this.entriesAtChunkEnd : 0);
    const bytesPerEntry = seen > 0 ? (this.seenBytes + (chunked ? this.currentBytes : 0)) / seen : ESTIMATED_ENTRY_BYTES;
    const size = this.sizes[this.current] ?? 0;
    const inFile = Math.max(this.currentEntries, chunked ? (this.entriesAtChunkEnd * size) / this.currentBytes : size / bytesPerEntry);
    let later = 0;
    for (let index = this.current + 1; index < this.sizes.length; index += 1) if (!this.skipped.has(index)) later += (this.sizes[index] ?? 0) / bytesPerEntry;
    return Math.max(this.done, Math.round(this.entriesBefore + inFile + later));
  }
}
