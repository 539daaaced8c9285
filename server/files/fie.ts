import { createReadStream } from 'node:fs';
import { decodeLatin1 } from '#shared/fie/latin1.ts';
import { splitFieLines } from '#shared/fie/text.ts';

/**
 * FIE text files (SILTRA's FIE3/FIE4) told by their header and counted by entries without decoding
 * them whole, the way shared/fie/text.ts decodeFieText reads them: Latin-1, the first non-blank line
 * is the ETI header naming the version, and each EMP line after it starts an entry until the ETF
 * trailer.
 */

/** How much of the start is read to find the header (blank lines may come first). */
export const FIE_HEADER_SEARCH_BYTES = 64 * 1024;

export type FieHeader = { fie: true; version: 'FIE3' | 'FIE4' } | { fie: false; reason: string };

/** What the start of a file says: a FIE of a version the decoder reads, or why it is not one. */
export function fieHeaderOf(start: Uint8Array): FieHeader {
  const lines = splitFieLines(decodeLatin1(start).replace(/^\uFEFF/, ''));
  const header = lines.find((line) => line.trim() !== '');
  if (header === undefined || !header.startsWith('ETI')) return { fie: false, reason: 'no empieza por la cabecera ETI de un FIE' };
  const version = /FIE\d/.exec(header.slice(3))?.[0];
  if (version === undefined) return { fie: false, reason: 'la cabecera ETI no indica la versión del FIE' };
  if (version !== 'FIE3' && version !== 'FIE4') return { fie: false, reason: `es un ${version}, y solo se leen FIE3 y FIE4` };
  return { fie: true, version };
}

/** Bytes JavaScript's trim() removes that Latin-1 can hold. */
function isBlankByte(byte: number): boolean {
  return byte === 0x20 || (byte >= 0x09 && byte <= 0x0d) || byte === 0xa0;
}

const E = 0x45;
const M = 0x4d;
const P = 0x50;
const T = 0x54;
const F = 0x46;

/** Entries (EMP blocks) after the header and before the ETF trailer, streamed. */
export async function countFieEntries(path: string): Promise<number> {
  let entries = 0;
  let headerSeen = false;
  let lineLength = 0;
  let lineBlank = true;
  const head = [0, 0, 0];
  let ended = false;

  const endLine = () => {
    if (!headerSeen) {
      if (!lineBlank) headerSeen = true;
    } else if (lineLength >= 3 && head[0] === E && head[1] === T && head[2] === F) {
      ended = true;
    } else if (lineLength >= 3 && head[0] === E && head[1] === M && head[2] === P) {
      entries += 1;
    }
    lineLength = 0;
    lineBlank = true;
  };

  const stream = createReadStream(path, { highWaterMark: 1 << 20 });
  try {
    for await (const chunk of stream) {
      const bytes = chunk as Buffer;
      for (let index = 0; index < bytes.length; index += 1) {
        const byte = bytes[index] as number;
        if (byte === 0x0a) {
          endLine();
          if (ended) return entries;
          continue;
        }
        if (lineLength < 3) head[lineLength] = byte;
        lineLength += 1;
        if (lineBlank && !isBlankByte(byte)) lineBlank = false;
      }
    }
    if (lineLength > 0) endLine();
    return entries;
  } finally {
    stream.destroy();
  }
}
