import { saveBlob } from '../../ui/saveBlob.ts';

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The bytes of a base64 string (the history report arrives this way, so the renderer needs no spreadsheet code). */
export function base64ToBytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** Hands the bytes to the browser as a download named `filename`. */
export function saveBytes(bytes: Uint8Array<ArrayBuffer>, filename: string, type: string): void {
  saveBlob(new Blob([bytes], { type }), filename);
}
