import { decodeLatin1 } from './latin1.ts';
import { FieLineReader, type FieHeaderState } from './reader.ts';
import type { FieSlotEntry } from './slot-entry.ts';
import type { FieDiagnostic, FieEntry, FieVersion } from './types.ts';

/*
 * The FIE text form decoded as it arrives: chunks of Latin-1 bytes (or of text already decoded) in,
 * entries out as soon as their block ends. Nothing but the line being cut by a chunk boundary and the
 * entry being read is held, so a file of any size decodes in bounded memory. The entries, diagnostics,
 * version and registry date are exactly those of decodeFieText on the whole text (same reader).
 */

/** Everything a document says besides its entries and diagnostics, once the stream has ended. */
export interface FieStreamSummary {
  format: 'text';
  version: FieVersion | null;
  ignored: boolean;
  /** Why the file was ignored, in Spanish (as FieDocument.reason). */
  reason?: string;
  /** dd/mm/yyyy from the ETI header, as FieDocument.registryDate. */
  registryDate: string | null;
  /** How many entries and diagnostics were handed out. */
  entries: number;
  diagnostics: number;
}

/** What a streamed document hands out besides its entries. `header` is called once, as soon as the header has been judged. */
interface FieStreamEvents {
  diagnostic?(diagnostic: FieDiagnostic): void;
  header?(header: Exclude<FieHeaderState, { status: 'waiting' }>): void;
}

/**
 * Where a streamed document goes: each entry as its own FieEntry (`entry`: its fields record built for
 * it), or through the reader's slot view (`slots`: no record built; the view is valid during the call
 * only, see slot-entry.ts). A consumer that reads an entry and drops it takes `slots`.
 */
export type FieStreamSink = FieStreamEvents & ({ entry(entry: FieEntry): void; slots?: never } | { slots(entry: FieSlotEntry): void; entry?: never });

const BOM = 0xfeff;

/**
 * Bytes that turn into Latin-1 text a range at a time: Node's Buffer (`toString('latin1', start, end)`, a
 * native byte-for-byte copy) is one. Declared here because shared/ is compiled without Node's types.
 */
export interface Latin1Bytes {
  readonly length: number;
  toString(encoding: 'latin1', start: number, end: number): string;
}

/**
 * How much of a file a streaming consumer reads at a time: 1 MiB reads, fewer calls to the file system.
 * They are turned into text LATIN1_PIECE characters at a time (writeLatin1): V8 puts a string over 128 KiB
 * in its large-object space, a fresh mapping each, and on this kind of machine that made the conversion of
 * 256 KiB chunks cost about as much as the rest of the decoding (some 2 ms a chunk, against microseconds for
 * a 64 KiB piece).
 */
export const FIE_READ_BYTES = 1024 * 1024;
const LATIN1_PIECE = 64 * 1024;

/**
 * Push decoder: write() each chunk as it comes, then end(). Entries and diagnostics reach the sink
 * during write() (an entry when the next EMP, the ETF or the end shows its block is over).
 */
export class FieTextStream {
  private readonly reader: FieLineReader;
  /**
   * The start of a line cut by chunk boundaries: the pieces, joined once the line ends (no quadratic
   * copying). One array, emptied rather than replaced: a fresh `[]` holds small integers as far as V8
   * knows, and optimised code that saw strings in it would be thrown away.
   */
  private readonly pending: string[] = [];
  private started = false;
  private headerSent = false;
  private ended = false;

  constructor(private readonly sink: FieStreamSink) {
    const diagnostic = (found: FieDiagnostic) => sink.diagnostic?.(found);
    this.reader = sink.slots
      ? new FieLineReader({ entry: sink.slots.bind(sink), diagnostic })
      : new FieLineReader({ entry: (view) => sink.entry(view.toEntry()), diagnostic });
  }

  /** The header as judged so far ('waiting' until its line has arrived). */
  get header(): FieHeaderState {
    return this.reader.header;
  }

  /** True once the header says the file is not a FIE this decoder reads: what follows is not read. */
  get ignored(): boolean {
    return this.reader.header.status === 'ignored';
  }

  /** A chunk: Latin-1 bytes (any cut is fine, one byte is one character) or text. */
  write(chunk: string | Uint8Array): void {
    if (this.ended) throw new Error('FieTextStream: write() después de end()');
    if (typeof chunk !== 'string' && chunk.length > LATIN1_PIECE) {
      // In pieces, as writeLatin1: no text over 128 KiB (see FIE_READ_BYTES).
      for (let start = 0; start < chunk.length && !this.ignored; start += LATIN1_PIECE) this.write(chunk.subarray(start, start + LATIN1_PIECE));
      return;
    }
    const text = typeof chunk === 'string' ? chunk : decodeLatin1(chunk);
    if (text.length === 0 || this.ignored) return;
    let position = 0;
    if (!this.started) {
      this.started = true;
      if (text.charCodeAt(0) === BOM) position = 1; // decodeFieText skips one leading BOM
    }
    let newline = text.indexOf('\n', position);
    if (newline === -1) {
      this.pending.push(position === 0 ? text : text.slice(position));
      return;
    }
    if (this.pending.length > 0) {
      // The line cut by the previous chunk(s): the only text copied, into a flat string (not a cons).
      this.pending.push(text.slice(position, newline));
      const line = this.pending.join('');
      this.pending.length = 0;
      this.line(line, 0, line.length, true);
      position = newline + 1;
      newline = text.indexOf('\n', position);
    }
    while (newline !== -1) {
      this.line(text, position, newline, true);
      position = newline + 1;
      newline = text.indexOf('\n', position);
    }
    if (position < text.length) this.pending.push(text.slice(position));
    this.announceHeader();
  }

  /** A chunk of Latin-1 bytes as Node reads it (a Buffer), turned into text in pieces of 64 KiB (see FIE_READ_BYTES). */
  writeLatin1(bytes: Latin1Bytes): void {
    for (let start = 0; start < bytes.length; start += LATIN1_PIECE) {
      this.write(bytes.toString('latin1', start, Math.min(bytes.length, start + LATIN1_PIECE)));
      if (this.ignored) return;
    }
  }

  /** The end of the input: the last line (even empty, as splitFieLines gives it), the last entry, the summary. */
  end(): FieStreamSummary {
    if (!this.ended) {
      this.ended = true;
      const last = this.pending.join('');
      this.pending.length = 0;
      if (!this.ignored) this.reader.line(last, 0, last.length);
      this.reader.finish();
      this.announceHeader();
    }
    const { header } = this.reader;
    if (header.status === 'read') {
      return { format: 'text', version: header.version, ignored: false, registryDate: header.registryDate, entries: this.reader.entries, diagnostics: this.reader.diagnostics };
    }
    const reason = header.status === 'ignored' ? header.reason : 'El archivo no empieza por la cabecera ETI de un FIE';
    return { format: 'text', version: null, ignored: true, reason, registryDate: null, entries: 0, diagnostics: 0 };
  }

  /** text[start, end) followed by an LF: a CR just before the LF is not part of the line. */
  private line(text: string, start: number, end: number, beforeNewline: boolean): void {
    const cut = beforeNewline && end > start && text.charCodeAt(end - 1) === 0x0d ? end - 1 : end;
    this.reader.line(text, start, cut);
    if (!this.headerSent && this.reader.header.status !== 'waiting') this.announceHeader();
  }

  private announceHeader(): void {
    const { header } = this.reader;
    if (this.headerSent || header.status === 'waiting') return;
    this.headerSent = true;
    this.sink.header?.(header);
  }
}

/** One step of a streamed document, in the order the file gives them. */
export type FieStreamItem =
  | { kind: 'header'; header: Exclude<FieHeaderState, { status: 'waiting' }> }
  | { kind: 'entry'; entry: FieEntry }
  | { kind: 'diagnostic'; diagnostic: FieDiagnostic }
  | { kind: 'end'; summary: FieStreamSummary };

/**
 * Pull decoder: the items of a document from an (async) iterable of chunks, e.g. a file read stream.
 * Only the items of one chunk wait to be taken. After a header that makes the file ignored, the rest of
 * the input is not read (the source is closed, as `break` in for-await closes it).
 */
export async function* streamFieText(chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>): AsyncGenerator<FieStreamItem, void, undefined> {
  let queue: FieStreamItem[] = [];
  const decoder = new FieTextStream({
    entry: (entry) => void queue.push({ kind: 'entry', entry }),
    diagnostic: (diagnostic) => void queue.push({ kind: 'diagnostic', diagnostic }),
    // The header's own diagnostics (a bad date in ETI) are found while it is read: the header goes first.
    header: (header) => void queue.unshift({ kind: 'header', header }),
  });
  const drain = function* (): Generator<FieStreamItem> {
    const items = queue;
    queue = [];
    yield* items;
  };
  for await (const chunk of chunks) {
    decoder.write(chunk);
    yield* drain();
    if (decoder.ignored) break;
  }
  const summary = decoder.end();
  yield* drain();
  yield { kind: 'end', summary };
}
