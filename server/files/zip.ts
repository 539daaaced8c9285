import { Transform, type Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { capExceeded, unreadable } from './errors.ts';
import { MAX_DECOMPRESSED_BYTES, MAX_SMALL_PART_BYTES, MAX_ZIP_ENTRIES } from './limits.ts';
import { formatBytes } from '#shared/files/size.ts';
import { zipEntryNamed } from '#shared/spreadsheet/zip-names.ts';

/**
 * Decompressed bytes an inspection may still read. Shared by every entry it opens (and by every
 * time it opens one again), so the cap holds for the file as a whole.
 */
export class DecompressionBudget {
  private used = 0;

  constructor(readonly limit = MAX_DECOMPRESSED_BYTES) {}

  get bytesRead(): number {
    return this.used;
  }

  /** Counts bytes just decompressed; throws the cap's refusal past the limit. */
  take(bytes: number): void {
    this.used += bytes;
    if (this.used > this.limit) throw decompressedTooLarge(this.limit);
  }
}

export function decompressedTooLarge(limit = MAX_DECOMPRESSED_BYTES) {
  return capExceeded(`El archivo ocupa más de ${formatBytes(limit)} descomprimido, el máximo que se lee. Guárdalo de nuevo o divídelo en archivos más pequeños.`);
}

export interface ZipOptions {
  budget?: DecompressionBudget;
  maxEntries?: number;
}

/**
 * A zip read from its central directory with yauzl: entries by name, each read as a stream of its
 * decompressed bytes. yauzl checks that an entry never inflates past the size the directory declares
 * (validateEntrySizes), and every byte counts against the budget, so neither a lying header nor a
 * bomb gets past the cap. Plain Node; the robots' process can stream a workbook's rows with it too.
 */
export class ZipArchive {
  private constructor(
    private readonly zip: ZipFile,
    readonly entries: ReadonlyMap<string, Entry>,
    readonly budget: DecompressionBudget,
  ) {}

  /** Opens the file; refuses (unreadable) one that is not a zip, and (cap) one with too many entries. */
  static async open(path: string, options: ZipOptions = {}): Promise<ZipArchive> {
    const budget = options.budget ?? new DecompressionBudget();
    const maxEntries = options.maxEntries ?? MAX_ZIP_ENTRIES;
    let zip: ZipFile;
    try {
      zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false, decodeStrings: true });
    } catch (error) {
      throw unreadable(`No es un archivo zip válido (${(error as Error).message})`);
    }
    if (zip.entryCount > maxEntries) {
      zip.close();
      throw capExceeded(`El archivo contiene más de ${maxEntries} partes comprimidas, el máximo que se lee.`);
    }
    const entries = new Map<string, Entry>();
    try {
      for await (const entry of zip.eachEntry()) {
        // Some writers use backslashes; names are matched as the format writes them, with '/'.
        entries.set(entry.fileName.replaceAll('\\', '/'), entry);
      }
    } catch (error) {
      zip.close();
      throw unreadable(`El índice del archivo zip está dañado (${(error as Error).message})`);
    }
    return new ZipArchive(zip, entries, budget);
  }

  /** The entry of this name (zipEntryNamed), or undefined. */
  entry(name: string): Entry | undefined {
    return zipEntryNamed(this.entries, name);
  }

  has(name: string): boolean {
    return this.entry(name) !== undefined;
  }

  /** Sum of the uncompressed sizes the directory declares (entries cannot inflate past theirs). */
  declaredSize(): number {
    let total = 0;
    for (const entry of this.entries.values()) total += entry.uncompressedSize;
    return total;
  }

  /** The entry's decompressed bytes as a stream; each chunk is counted against the budget. */
  async stream(name: string): Promise<Readable> {
    const entry = this.entry(name);
    if (!entry) throw unreadable(`Falta la parte ${name}`);
    if (entry.isEncrypted()) throw unreadable('El archivo está protegido con contraseña');
    if (!entry.canDecodeFileData()) throw unreadable(`La parte ${name} usa una compresión que no se puede leer`);
    let source: Readable;
    try {
      source = await this.zip.openReadStreamPromise(entry);
    } catch (error) {
      throw unreadable(`No se puede leer la parte ${name} (${(error as Error).message})`);
    }
    const budget = this.budget;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        try {
          budget.take(chunk.length);
          done(null, chunk);
        } catch (error) {
          done(error as Error);
        }
      },
    });
    source.on('error', (error) => counted.destroy(error.name === 'FileRefusal' ? error : unreadable(`La parte ${name} está dañada (${error.message})`)));
    counted.on('close', () => source.destroy());
    return source.pipe(counted);
  }

  /** A small entry read whole as bytes (refused past `maxBytes`). */
  async readBytes(name: string, maxBytes = MAX_SMALL_PART_BYTES): Promise<Buffer> {
    const entry = this.entry(name);
    if (entry && entry.uncompressedSize > maxBytes) throw capExceeded(`La parte ${name} ocupa más de ${formatBytes(maxBytes)} descomprimida, el máximo que se lee.`);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of await this.stream(name)) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) throw capExceeded(`La parte ${name} ocupa más de ${formatBytes(maxBytes)} descomprimida, el máximo que se lee.`);
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks);
  }

  async readText(name: string, maxBytes = MAX_SMALL_PART_BYTES): Promise<string> {
    return (await this.readBytes(name, maxBytes)).toString('utf8');
  }

  close(): void {
    this.zip.close();
  }
}

/** Opens a zip, runs `use`, and closes it whatever happens. */
export async function withZip<T>(path: string, options: ZipOptions, use: (zip: ZipArchive) => Promise<T>): Promise<T> {
  const zip = await ZipArchive.open(path, options);
  try {
    return await use(zip);
  } finally {
    zip.close();
  }
}
