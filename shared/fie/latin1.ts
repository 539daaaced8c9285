/**
 * ISO-8859-1 bytes to text. Latin-1 maps every byte to the code point of the same value, so this is a
 * plain table-free conversion. Not iconv-lite: it accepts a Uint8Array, but it is built on `safer-buffer`,
 * i.e. Node's Buffer, which a browser bundle of shared/ does not have. Not TextDecoder('latin1')
 * either: per the WHATWG Encoding standard that label means windows-1252, which remaps 0x80–0x9F.
 * The CLI, which runs in Node, decodes with iconv-lite.
 */
export function decodeLatin1(bytes: Uint8Array): string {
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
