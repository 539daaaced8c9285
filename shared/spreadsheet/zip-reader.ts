import { DecodeUTF8, Inflate, strFromU8 } from 'fflate';
import { StopXml, xmlFeed, type XmlHandlers } from './xml.ts';
import { zipEntryNamed } from './zip-names.ts';

/**
 * A zip (an .xlsx) read from its bytes in memory: entries found through the central directory, each
 * inflated chunk by chunk with fflate, so a sheet of 500 MB of XML passes through 64 KiB at a time and
 * is never held. The compressed bytes are the robot's input anyway (RobotFile.data).
 */

export class ZipReadError extends Error {}

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  headerOffset: number;
  flags: number;
  crc: number;
}

/** An entry's bytes as stored, to copy into another zip without inflating and deflating them again. */
export interface RawZipEntry {
  method: number;
  crc: number;
  size: number;
  data: Uint8Array;
}

/** Compressed bytes handed to the inflater at a time. */
const CHUNK = 64 * 1024;
/** Compressed bytes read between two turns of the event loop, so a stop (or a time limit) is heard. */
const YIELD_EVERY = 2 * 1024 * 1024;

type Scheduler = (callback: () => void, ms: number) => unknown;
const schedule = (globalThis as { setTimeout?: Scheduler }).setTimeout;
const nextTurn = () => new Promise<void>((resolve) => (schedule ? schedule(resolve, 0) : resolve()));

export class ZipReader {
  private constructor(
    private readonly bytes: Uint8Array,
    private readonly entries: ReadonlyMap<string, ZipEntry>,
  ) {}

  /** Reads the central directory; throws ZipReadError for bytes that are not a zip this can read. */
  static open(bytes: Uint8Array): ZipReader {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let end = -1;
    // The end record is the last 22 bytes plus a comment of at most 65,535.
    for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 65_535); at -= 1) {
      if (view.getUint32(at, true) === 0x06054b50) {
        end = at;
        break;
      }
    }
    if (end < 0) throw new ZipReadError('No es un archivo zip');
    const count = view.getUint16(end + 10, true);
    let at = view.getUint32(end + 16, true);
    if (at === 0xffffffff || count === 0xffff) throw new ZipReadError('El zip es de formato zip64, que no se lee en flujo');
    const entries = new Map<string, ZipEntry>();
    for (let index = 0; index < count; index += 1) {
      if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) throw new ZipReadError('El índice del zip está dañado');
      const nameLength = view.getUint16(at + 28, true);
      const entry: ZipEntry = {
        flags: view.getUint16(at + 8, true),
        method: view.getUint16(at + 10, true),
        crc: view.getUint32(at + 16, true),
        compressedSize: view.getUint32(at + 20, true),
        uncompressedSize: view.getUint32(at + 24, true),
        headerOffset: view.getUint32(at + 42, true),
        name: strFromU8(bytes.subarray(at + 46, at + 46 + nameLength)).replaceAll('\\', '/'),
      };
      entries.set(entry.name, entry);
      at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    }
    return new ZipReader(bytes, entries);
  }

  /** The entry of this name (zipEntryNamed), or undefined. */
  private entry(name: string): ZipEntry | undefined {
    return zipEntryNamed(this.entries, name);
  }

  has(name: string): boolean {
    return this.entry(name) !== undefined;
  }

  /** The names of every entry, as written. */
  names(): string[] {
    return [...this.entries.keys()];
  }

  /** Uncompressed size the directory declares (0 for a missing entry): a progress estimate. */
  sizeOf(name: string): number {
    return this.entry(name)?.uncompressedSize ?? 0;
  }

  /** The entry's bytes as stored (deflated, usually). */
  raw(name: string): RawZipEntry {
    const entry = this.entry(name);
    if (!entry) throw new ZipReadError(`Falta la parte ${name}`);
    if ((entry.flags & 1) !== 0) throw new ZipReadError('El archivo está protegido con contraseña');
    const view = new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
    const header = entry.headerOffset;
    if (header + 30 > this.bytes.length || view.getUint32(header, true) !== 0x04034b50) throw new ZipReadError(`La parte ${name} está dañada`);
    const start = header + 30 + view.getUint16(header + 26, true) + view.getUint16(header + 28, true);
    const data = this.bytes.subarray(start, start + entry.compressedSize);
    if (data.length !== entry.compressedSize) throw new ZipReadError(`La parte ${name} está cortada`);
    return { method: entry.method, crc: entry.crc, size: entry.uncompressedSize, data };
  }

  /** The entry's decompressed bytes, chunk by chunk, to `onData`; a turn of the event loop every few MB. */
  async read(name: string, onData: (chunk: Uint8Array, final: boolean) => void, afterChunk?: () => Promise<void>): Promise<void> {
    const { method, data } = this.raw(name);
    if (method === 0) {
      for (let at = 0; at < data.length || at === 0; at += CHUNK) {
        onData(data.subarray(at, at + CHUNK), at + CHUNK >= data.length);
        if (at % YIELD_EVERY === 0 && at > 0) await nextTurn();
        if (afterChunk) await afterChunk();
      }
      return;
    }
    if (method !== 8) throw new ZipReadError(`La parte ${name} usa una compresión que no se puede leer`);
    const inflate = new Inflate((chunk, final) => onData(chunk, final));
    for (let at = 0; at < data.length; at += CHUNK) {
      inflate.push(data.subarray(at, at + CHUNK), at + CHUNK >= data.length);
      if (at % YIELD_EVERY === 0 && at > 0) await nextTurn();
      if (afterChunk) await afterChunk();
    }
    if (data.length === 0) inflate.push(new Uint8Array(0), true);
  }

  /** A small entry whole, as text. */
  async text(name: string): Promise<string> {
    let text = '';
    const decoder = new DecodeUTF8((piece) => {
      text += piece;
    });
    await this.read(name, (chunk, final) => decoder.push(chunk, final));
    return text;
  }

  /**
   * The entry's XML through `handlers`, parsed as it inflates. A handler may throw StopXml to stop
   * reading; `onBytes` sees the decompressed bytes too (to copy the part as it is read); `afterChunk` is
   * awaited after each 64 KiB of compressed bytes, so a consumer can hand on what the handlers gathered
   * before more is read (backpressure).
   */
  async readXml(name: string, handlers: XmlHandlers, options: { onBytes?: (chunk: Uint8Array, final: boolean) => void; afterChunk?: () => Promise<void> } = {}): Promise<void> {
    const { onBytes, afterChunk } = options;
    const feed = xmlFeed(handlers);
    let stopped = false;
    const decoder = new DecodeUTF8((text, final) => {
      if (stopped) return;
      try {
        feed.write(text);
        if (final) feed.close();
      } catch (error) {
        if (!(error instanceof StopXml)) throw error;
        stopped = true;
      }
    });
    try {
      await this.read(name, (chunk, final) => {
        onBytes?.(chunk, final);
        if (!stopped) decoder.push(chunk, final);
        else if (onBytes === undefined) throw new StopXml();
      }, afterChunk);
    } catch (error) {
      if (!(error instanceof StopXml)) throw error;
    }
  }
}
