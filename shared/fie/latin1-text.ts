import { decodeLatin1 } from './latin1.ts';

/*
 * Latin-1 bytes to text for decodeFie, which holds a whole file. In Node, Buffer's 'latin1' decoding
 * (each byte straight into a one-byte string) is several times faster than TextDecoder, which goes
 * through ICU: about a tenth of an in-memory decode. shared/ also runs in browsers, which have no
 * Buffer; there decodeLatin1 does the work. Both map every byte to the code point of the same value.
 */

interface NodeBuffer {
  from(buffer: ArrayBufferLike, byteOffset: number, length: number): { toString(encoding: 'latin1'): string };
}

const NodeBuffer = (globalThis as { Buffer?: NodeBuffer }).Buffer;

export function latin1Text(bytes: Uint8Array): string {
  if (NodeBuffer === undefined) return decodeLatin1(bytes);
  return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}
