import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import * as XLSX from 'xlsx';
import { fieListResponseSchema, fiePaths, fieUploadResponseSchema, type FieDocumentView, type FieUploadResponse } from '#shared/api/fie.ts';
import { encodeFieFile, type FieRawValues } from '#shared/fie/encode.ts';
import type { Database } from '../../db/schema.ts';
import type { CookieJar } from '../../test/harness.ts';

/** The FIE module's API tests' fixtures (two firms' files, a worker's raw values) and request helpers. */

export const NOW = new Date('2025-02-10T09:00:00.000Z');
export const FIE_TABLES: (keyof Database)[] = ['fie_documents', 'fie_entries', 'fie_document_entries'];

/** A worker's raw FIE values: name, surnames, NIF (14 wide, zero padded), company and CCC. */
function worker(name: string, surname: string, nif: string, company: string, ccc: string): FieRawValues {
  return { 310: ccc, 320: '0111', 530: company, 670: nif.padStart(14, '0'), 820: surname, 840: name };
}

const MARIA = worker('MARÍA', 'PEÑA', '12345678Z', 'ASESORÍA NÚÑEZ SL', '28123456789');
const JOSE = worker('JOSÉ', 'GARCÍA', '87654321X', 'TALLERES ORTEGA SA', '08765432101');
const LUCIA = worker('LUCÍA', 'IBÁÑEZ', '11111111H', 'TALLERES ORTEGA SA', '08765432101');
const ANGEL = worker('ÁNGEL', 'LÓPEZ', '22222222J', 'ASESORÍA NÚÑEZ SL', '28123456789');

/** An open baja of common illness (incident 2). */
export const mariaBaja: FieRawValues = { ...MARIA, 1020: '20250110', 1060: '0003', 1090: '1', 1100: 'S', 1170: 'N' };
/** A two-day leave ended by an alta (incident 7, short). */
export const joseAlta: FieRawValues = { ...JOSE, 1020: '20250105', 1090: '3', 1150: '20250106', 1170: 'N' };
/** Another benefit (dop): shown disabled, never synced. */
export const luciaDop: FieRawValues = { ...LUCIA, 1910: '01' };
/** A confirmation of Ángel's leave (cit), still open. */
export const angelCit: FieRawValues = { ...ANGEL, 1020: '20250112', 1090: '2', 1520: '20250119', 1530: '01', 1170: 'N' };

export const fileA = encodeFieFile({ date: '20250115', entries: [mariaBaja, joseAlta, luciaDop] });
/** The INSS resends María's baja in the next file, with Ángel's confirmation. */
export const fileB = encodeFieFile({ date: '20250120', entries: [mariaBaja, angelCit] });

export const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c6300010000050001', 'hex');

export function multipart(files: readonly { name: string; data: Buffer | string }[], field = 'files'): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----fie${randomUUID()}`;
  const parts = files.flatMap((file) => [
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    Buffer.isBuffer(file.data) ? file.data : Buffer.from(file.data, 'latin1'),
    Buffer.from('\r\n'),
  ]);
  return { payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export async function upload(jar: CookieJar, files: readonly { name: string; data: Buffer | string }[]): Promise<FieUploadResponse> {
  const { payload, headers } = multipart(files);
  const response = await jar.request({ method: 'POST', url: fiePaths.upload, payload, headers });
  expect(response.statusCode, response.body).toBe(200);
  return fieUploadResponseSchema.parse(response.json());
}

export async function list(jar: CookieJar, query = ''): Promise<FieDocumentView[]> {
  const response = await jar.get(`${fiePaths.fie}${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return fieListResponseSchema.parse(response.json()).items;
}

/** Each listed document as its file name (or id) and the NIFs of its listed entries. */
export const shape = (documents: FieDocumentView[]) => documents.map((document) => [document.fileName ?? document._id, document.entries.map((entry) => entry.nif)]);

/** An Excel form of the FIE: a header row of field codes, one entry per row. */
export function excelFie(rows: (string | number)[][]): Buffer {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['670', '840', '820', '530', '310', '1020', '1090'], ...rows]), 'FIE');
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}
