import { fileTypeFromFile } from 'file-type';
import { wrongType } from './errors.ts';
import { judgeTextBytes } from './text.ts';

/**
 * The first check of an upload's content, on its first bytes while it streams to disk: each claimed
 * type has the magic its format starts with (a zip for .xlsx, OLE2 for .xls, %PDF for .pdf…), or must
 * read as text. A mismatch stops the upload before the rest is stored. The check is finished on the
 * stored file: by the inspection for workbooks and text, by file-type for the rest (contentMatches).
 */

/** Bytes collected before the first verdict (file-type's own sample size). */
export const SNIFF_BYTES = 4_100;

const startsWith = (bytes: Uint8Array, magic: readonly number[], at = 0) => magic.every((byte, index) => bytes[at + index] === byte);
const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

function isBiff(bytes: Uint8Array): boolean {
  // A bare BIFF2–BIFF5 stream starts with its BOF record: 09 00, 09 02, 09 04 or 09 08.
  return bytes[0] === 0x09 && [0x00, 0x02, 0x04, 0x08].includes(bytes[1] ?? -1);
}

type Check = (bytes: Uint8Array) => boolean;

const MAGIC: Readonly<Record<string, Check>> = {
  xlsx: (bytes) => startsWith(bytes, ZIP),
  docx: (bytes) => startsWith(bytes, ZIP),
  pptx: (bytes) => startsWith(bytes, ZIP),
  ods: (bytes) => startsWith(bytes, ZIP),
  odt: (bytes) => startsWith(bytes, ZIP),
  odp: (bytes) => startsWith(bytes, ZIP),
  xls: (bytes) => startsWith(bytes, OLE2) || isBiff(bytes),
  doc: (bytes) => startsWith(bytes, OLE2),
  ppt: (bytes) => startsWith(bytes, OLE2),
  pdf: (bytes) => startsWith(bytes, ascii('%PDF-')),
  png: (bytes) => startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  jpg: (bytes) => startsWith(bytes, [0xff, 0xd8, 0xff]),
  jpeg: (bytes) => startsWith(bytes, [0xff, 0xd8, 0xff]),
  gif: (bytes) => startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a')),
  bmp: (bytes) => startsWith(bytes, ascii('BM')),
  webp: (bytes) => startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8),
  tif: isTiff,
  tiff: isTiff,
  rtf: (bytes) => startsWith(bytes, ascii('{\\rtf')),
};

function isTiff(bytes: Uint8Array): boolean {
  return [[0x49, 0x49, 0x2a, 0x00], [0x4d, 0x4d, 0x00, 0x2a], [0x49, 0x49, 0x2b, 0x00], [0x4d, 0x4d, 0x00, 0x2b]].some((magic) => startsWith(bytes, magic));
}

/** Types that are text: they must have no NUL byte and few control characters. */
export const TEXT_TYPES: ReadonlySet<string> = new Set(['csv', 'txt', 'msj', 'fie', 'svg']);

/** Spanish names of what each type is, for the messages ('un libro de Excel (.xlsx)'). */
export function describeType(type: string): string {
  switch (type) {
    case 'xlsx':
      return 'un libro de Excel (.xlsx)';
    case 'xls':
      return 'un libro de Excel 97-2003 (.xls)';
    case 'ods':
      return 'una hoja de cálculo ODS (.ods)';
    case 'csv':
      return 'un CSV';
    case 'fie':
      return 'un FIE de SILTRA';
    case 'txt':
    case 'msj':
      return `un archivo de texto (.${type})`;
    case 'svg':
      return 'una imagen SVG';
    default:
      return `un archivo .${type}`;
  }
}

/** The first bytes' verdict: null when they fit the claimed type, else why not (Spanish). */
export function sniffStart(type: string, start: Uint8Array): string | null {
  if (TEXT_TYPES.has(type)) {
    const verdict = judgeTextBytes(start);
    return verdict.text ? null : `No es ${describeType(type)}: ${verdict.reason}`;
  }
  const check = MAGIC[type];
  if (check === undefined) return null;
  return check(start) ? null : `No es ${describeType(type)}: su contenido es de otro tipo`;
}

/** What file-type must find in a stored file of each type it checks (it tells OLE2 files apart no further than 'cfb'). */
const FILE_TYPE_EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
  pdf: ['pdf'],
  png: ['png', 'apng'],
  jpg: ['jpg'],
  jpeg: ['jpg'],
  gif: ['gif'],
  bmp: ['bmp'],
  webp: ['webp'],
  tif: ['tif'],
  tiff: ['tif'],
  rtf: ['rtf'],
  doc: ['cfb'],
  ppt: ['cfb'],
  docx: ['docx'],
  pptx: ['pptx'],
  odt: ['odt'],
  odp: ['odp'],
};

/** Whether file-type checks this type on the stored file (the rest are inspected, or are SVG). */
export function checkedByFileType(type: string): boolean {
  return type in FILE_TYPE_EXTENSIONS;
}

/**
 * The stored file's verdict by file-type (sindresorhus), which reads only as much as it needs and caps
 * what it inflates of a zip: null when it is the claimed type, else why not.
 */
export async function contentMatches(type: string, path: string): Promise<string | null> {
  const expected = FILE_TYPE_EXTENSIONS[type];
  if (expected === undefined) return null;
  const found = await fileTypeFromFile(path).catch(() => undefined);
  if (found !== undefined && expected.includes(found.ext)) return null;
  return `No es ${describeType(type)}: ${found === undefined ? 'no se reconoce su contenido' : `su contenido es de tipo .${found.ext}`}`;
}

/** An SVG is XML text with an <svg> element near its start. */
export function looksLikeSvg(start: Uint8Array): boolean {
  return /<svg[\s>]/i.test(new TextDecoder('utf-8').decode(start));
}

/** How much of an SVG's start is kept to look for its <svg> element. */
const SVG_START_BYTES = 64 * 1024;

/**
 * Watches an upload's first bytes as they stream to disk: `push` throws the type refusal as soon as
 * SNIFF_BYTES have arrived and do not fit the claimed type, `finish` judges a shorter file.
 */
export class StartSniffer {
  private readonly chunks: Buffer[] = [];
  private collected = 0;
  private judged = false;
  private readonly keep: number;

  constructor(readonly type: string) {
    this.keep = type === 'svg' ? SVG_START_BYTES : SNIFF_BYTES;
  }

  push(chunk: Buffer): void {
    if (this.collected >= this.keep) return;
    this.chunks.push(chunk.subarray(0, this.keep - this.collected));
    this.collected += Math.min(chunk.length, this.keep - this.collected);
    if (!this.judged && this.collected >= SNIFF_BYTES) this.judge();
  }

  /** The file has ended: judges it if it was shorter than the sample. */
  finish(): void {
    if (!this.judged) this.judge();
  }

  /** The bytes kept from the start (SNIFF_BYTES; an SVG's first 64 KB). */
  get start(): Buffer {
    return Buffer.concat(this.chunks);
  }

  private judge(): void {
    this.judged = true;
    const reason = sniffStart(this.type, this.start);
    if (reason !== null) throw wrongType(reason);
  }
}
