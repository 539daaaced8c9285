import { crc32 } from 'node:zlib';
import { SIGNATURE_REFUSED_MESSAGE } from '#shared/api/onlineforms.ts';
import { HttpError } from '../../http/errors.ts';
import { MAX_SIGNATURE_HEIGHT, MAX_SIGNATURE_WIDTH } from './messages.ts';

const DATA_URL = /^data:image\/png;base64,([A-Za-z0-9+/]+={0,2})$/;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export const signatureRefused = () => new HttpError(400, 'SIGNATURE_REFUSED', SIGNATURE_REFUSED_MESSAGE, { issues: [{ path: 'signature', message: SIGNATURE_REFUSED_MESSAGE }] });

/**
 * The drawn signature's PNG bytes, judged by their content, never by the data URL's claim: the PNG
 * signature, an IHDR first with a size within MAX_SIGNATURE_WIDTH × MAX_SIGNATURE_HEIGHT, every chunk
 * whole with its CRC right, at least one IDAT, and IEND last with nothing after it. Anything else is
 * refused (400 SIGNATURE_REFUSED_MESSAGE).
 */
export function signaturePngOf(dataUrl: string): Buffer {
  const match = DATA_URL.exec(dataUrl);
  if (!match?.[1] || match[1].length % 4 !== 0) throw signatureRefused();
  const bytes = Buffer.from(match[1], 'base64');
  if (!isSignaturePng(bytes)) throw signatureRefused();
  return bytes;
}

/** Whether the bytes are one whole PNG of a signature's size (see signaturePngOf). */
export function isSignaturePng(bytes: Buffer): boolean {
  if (bytes.length < PNG_SIGNATURE.length + 12 + 13 + 12 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return false;
  let offset = 8;
  let first = true;
  let images = 0;
  while (offset + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const end = offset + 12 + length;
    if (length > 0x7fffffff || end > bytes.length) return false;
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    if (!/^[A-Za-z]{4}$/.test(type)) return false;
    const stored = bytes.readUInt32BE(end - 4);
    if (crc32(bytes.subarray(offset + 4, end - 4)) !== stored) return false;
    const data = bytes.subarray(offset + 8, end - 4);
    if (first) {
      if (type !== 'IHDR' || length !== 13) return false;
      const width = data.readUInt32BE(0);
      const height = data.readUInt32BE(4);
      if (width === 0 || height === 0 || width > MAX_SIGNATURE_WIDTH || height > MAX_SIGNATURE_HEIGHT) return false;
      first = false;
    } else if (type === 'IHDR') {
      return false;
    }
    if (type === 'IDAT') images += 1;
    offset = end;
    if (type === 'IEND') return length === 0 && images > 0 && offset === bytes.length;
  }
  return false;
}
