/** A file's kind by its first bytes (its magic number), never by its name. */

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return bytes.length >= magic.length && magic.every((byte, index) => bytes[index] === byte);
}

/** Whether the bytes start as a zip does (an .xlsx, but also an .ods or .xlsb). */
export const isZip = (bytes: Uint8Array): boolean => startsWith(bytes, ZIP_MAGIC);

/** Whether the bytes start as an OLE compound file does (an .xls: BIFF in a compound file). */
export const isOleCompound = (bytes: Uint8Array): boolean => startsWith(bytes, OLE_MAGIC);
