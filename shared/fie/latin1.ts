/**
 * ISO-8859-1 bytes to text. Latin-1 maps every byte to the code point of the same value. Not
 * iconv-lite: it accepts a Uint8Array, but it is built on `safer-buffer`, i.e. Node's Buffer, which a
 * browser bundle of shared/ does not have. TextDecoder('latin1') is windows-1252 per the WHATWG
 * Encoding standard, which differs from Latin-1 only in 0x80–0x9F (C1 control codes, never in real
 * text); so the native decoder is used when those bytes are absent, and a byte-for-byte conversion
 * otherwise. The CLI, which runs in Node, decodes with iconv-lite.
 */

// Declared here because shared/ is compiled without DOM or Node types; both runtimes have it.
declare const TextDecoder: (new (label: string) => { decode(input: Uint8Array): string }) | undefined;

const windows1252 = typeof TextDecoder === 'function' ? new TextDecoder('windows-1252') : null;

/**
 * Node (20 to 22 at least) decodes the 'latin1'/'windows-1252' label byte for byte, C1 controls included,
 * unlike browsers: probed once, so that where it holds no byte has to be scanned for C1 first.
 */
const C1_BYTES = Uint8Array.from({ length: 0x20 }, (_, index) => 0x80 + index);
const nativeIsLatin1 = windows1252 !== null && windows1252.decode(C1_BYTES) === decodeByteForByte(C1_BYTES);

export function decodeLatin1(bytes: Uint8Array): string {
  if (windows1252 && (nativeIsLatin1 || !hasC1Controls(bytes))) return windows1252.decode(bytes);
  return decodeByteForByte(bytes);
}

function hasC1Controls(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] as number;
    if (byte >= 0x80 && byte <= 0x9f) return true;
  }
  return false;
}

function decodeByteForByte(bytes: Uint8Array): string {
  // fromCharCode takes its arguments on the stack, so go in slices; applying it to the typed array
  // directly is several times faster than spreading it (no iterator), and one join beats `+=`.
  const CHUNK = 0x2000;
  const parts: string[] = [];
  for (let start = 0; start < bytes.length; start += CHUNK) {
    const part: string = Reflect.apply(String.fromCharCode, null, bytes.subarray(start, start + CHUNK));
    parts.push(part);
  }
  return parts.join('');
}
