import { strToU8, Zip, ZipDeflate, type ZipInputFile } from 'fflate';

/**
 * A zip written as it is produced (fflate's streaming Zip, sizes in data descriptors): each file is
 * deflated chunk by chunk, so a robot writing a million rows never holds their XML. Files are written one
 * after the other: open the next only when the last one has ended.
 *
 * Two ways to take the bytes: built in memory and given whole by `finish()` (small workbooks, tests), or,
 * with a `ByteSink`, handed to it as they are made (a robot's output going to storage, an HTTP reply):
 * past `DRAIN_FROM_BYTES` waiting, a drain starts by itself (it runs while the writer awaits anything),
 * and a writer that can wait awaits `drain()` (backpressure); `end()` at the close. Memory holds a few
 * chunks, never the zip. Either way the bytes are the same.
 */

/** Text is gathered up to this size before it is encoded and deflated: one push per row would cost more than the row. */
const FLUSH_CHARS = 64 * 1024;
/** zlib level 6, Excel's own balance of size and speed. */
const LEVEL = 6;

/** Where a streamed zip's bytes go, in order (RobotOutput and a Node stream's writer fit). */
export interface ByteSink {
  /** The next bytes; a promise when the sink wants the writer to wait (backpressure). */
  write(chunk: Uint8Array): Promise<void> | void;
  /** Every byte has been written. */
  close(): Promise<void> | void;
}

/** Bytes made but not yet taken by the sink past which a writer should `await drain()`. */
export const DRAIN_FROM_BYTES = 1024 * 1024;

export interface ZipEntryWriter {
  write(text: string): void;
  end(): void;
}

export class ZipBuilder {
  private readonly zip: Zip;
  private readonly chunks: Uint8Array[] = [];
  private bytes = 0;
  private failure: Error | null = null;
  private open: string | null = null;
  private current: ZipDeflate | null = null;
  private finished = false;
  /** Bytes in `chunks` not yet given to the sink (always 0 in memory: there they are the result). */
  private queued = 0;
  private draining: Promise<void> | null = null;

  /**
   * Without a sink, the zip is kept in memory for `finish()`; with one, its bytes go there (`drain()`,
   * `end()`). `modified` dates every entry (default: when each is added), so two builds can be alike to the byte.
   */
  constructor(
    private readonly sink: ByteSink | null = null,
    private readonly modified?: Date,
  ) {
    this.zip = new Zip((error, chunk, final) => {
      if (error) this.failure = error;
      else {
        this.chunks.push(chunk);
        this.bytes += chunk.length;
        if (this.sink !== null) {
          this.queued += chunk.length;
          // Handed on whenever the writer lets the event loop turn (reading its input, say), even if it never awaits drain().
          if (this.queued >= DRAIN_FROM_BYTES && this.draining === null) void this.drain().catch(() => undefined);
        }
      }
      if (final) this.finished = true;
    });
  }

  /** A small file written whole ([Content_Types].xml, a relationship part, an unchanged part copied over). */
  addFile(path: string, data: Uint8Array | string): void {
    const entry = this.openFile(path);
    if (typeof data === 'string') entry.write(data);
    else this.pushBytes(path, data);
    entry.end();
  }

  /** A file written in pieces of text (a sheet's XML, row by row). */
  openFile(path: string): ZipEntryWriter {
    if (this.open !== null) throw new Error(`No se puede empezar ${path} en el zip: ${this.open} sigue abierto`);
    this.open = path;
    const file = new ZipDeflate(path, { level: LEVEL });
    // fflate reads an entry's date from the file object, not from the deflate options.
    if (this.modified) file.mtime = this.modified;
    this.zip.add(file);
    this.current = file;
    let pending = '';
    const flush = (final: boolean) => {
      file.push(pending === '' ? new Uint8Array(0) : strToU8(pending), final);
      pending = '';
      this.throwIfFailed();
    };
    return {
      write: (text) => {
        pending += text;
        if (pending.length >= FLUSH_CHARS) flush(false);
      },
      end: () => {
        flush(true);
        this.open = null;
        this.current = null;
      },
    };
  }

  /**
   * A file copied as another zip stores it (deflated or stored, with its CRC and size): a large part
   * that does not change, such as a workbook's shared strings, is not deflated a second time.
   */
  addRaw(path: string, entry: { method: number; crc: number; size: number; data: Uint8Array }): void {
    if (this.open !== null) throw new Error(`No se puede empezar ${path} en el zip: ${this.open} sigue abierto`);
    const file: ZipInputFile = { filename: path, size: entry.size, crc: entry.crc, compression: entry.method, ...(this.modified && { mtime: this.modified }) };
    this.zip.add(file);
    file.ondata?.(null, entry.data as Uint8Array<ArrayBuffer>, true);
    this.throwIfFailed();
  }

  /** A file written in pieces of bytes (a part copied over as it is read from another zip). */
  openBytes(path: string): { push(bytes: Uint8Array): void; end(): void } {
    const entry = this.openFile(path);
    return { push: (bytes) => this.pushBytes(path, bytes), end: () => entry.end() };
  }

  private pushBytes(path: string, data: Uint8Array): void {
    if (this.current === null || this.open !== path) throw new Error(`${path} no está abierto en el zip`);
    this.current.push(data, false);
    this.throwIfFailed();
  }

  /** Bytes of the zip written so far (compressed). */
  get size(): number {
    return this.bytes;
  }

  /** Bytes made and not yet handed to the sink: past DRAIN_FROM_BYTES, `await drain()` before writing more. */
  get backlog(): number {
    return this.queued;
  }

  /**
   * Hands the bytes made so far to the sink, waiting as it asks (nothing to do in memory). A sink that
   * fails fails this, and every write after it.
   */
  async drain(): Promise<void> {
    if (this.sink === null) return;
    // One drain at a time, so chunks reach the sink in order whoever calls.
    this.draining ??= this.flushToSink().finally(() => (this.draining = null));
    await this.draining;
    this.throwIfFailed();
  }

  /** Never rejects: a failure is kept and thrown to the writer. */
  private async flushToSink(): Promise<void> {
    const sink = this.sink!;
    try {
      // Chunks made while a write is awaited join the next batch.
      while (this.chunks.length > 0 && this.failure === null) {
        for (const chunk of this.chunks.splice(0)) {
          this.queued -= chunk.length;
          await sink.write(chunk);
        }
      }
    } catch (error) {
      this.failure ??= error instanceof Error ? error : new Error(String(error));
    }
  }

  /** Ends a streamed zip: its central directory written, every byte handed to the sink, the sink closed. */
  async end(): Promise<void> {
    if (this.sink === null) throw new Error('Este zip se escribe en memoria: se termina con finish()');
    this.endZip();
    await this.drain();
    await this.sink.close();
  }

  /** Ends an in-memory zip (its central directory) and gives its bytes. */
  finish(): Uint8Array {
    if (this.sink !== null) throw new Error('Este zip se escribe en flujo: se termina con end()');
    this.endZip();
    const result = new Uint8Array(this.bytes);
    let offset = 0;
    for (const chunk of this.chunks.splice(0)) {
      result.set(chunk, offset);
      offset += chunk.length;
    }
    return result;
  }

  private endZip(): void {
    if (this.open !== null) throw new Error(`El zip no puede cerrarse: ${this.open} sigue abierto`);
    this.zip.end();
    this.throwIfFailed();
    if (!this.finished) throw new Error('El zip no se ha terminado de escribir');
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }
}
