import { strToU8, Zip, ZipDeflate, type ZipInputFile } from 'fflate';

/**
 * A zip written as it is produced (fflate's streaming Zip): each file is deflated chunk by chunk, so a
 * robot writing a million rows holds their compressed bytes, never their XML. Files are written one
 * after the other: open the next only when the last one has ended.
 */

/** Text is gathered up to this size before it is encoded and deflated: one push per row would cost more than the row. */
const FLUSH_CHARS = 64 * 1024;
/** zlib level 6, Excel's own balance of size and speed. */
const LEVEL = 6;

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

  constructor() {
    this.zip = new Zip((error, chunk, final) => {
      if (error) this.failure = error;
      else {
        this.chunks.push(chunk);
        this.bytes += chunk.length;
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
    const file: ZipInputFile = { filename: path, size: entry.size, crc: entry.crc, compression: entry.method };
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

  /** Ends the zip (its central directory) and gives its bytes. */
  finish(): Uint8Array {
    if (this.open !== null) throw new Error(`El zip no puede cerrarse: ${this.open} sigue abierto`);
    this.zip.end();
    this.throwIfFailed();
    if (!this.finished) throw new Error('El zip no se ha terminado de escribir');
    const result = new Uint8Array(this.bytes);
    let offset = 0;
    for (const chunk of this.chunks.splice(0)) {
      result.set(chunk, offset);
      offset += chunk.length;
    }
    return result;
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }
}
