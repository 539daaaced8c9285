import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import { INCIDENCIAS_HEADER } from '#shared/a3/incidences-sheet.ts';
import {
  fieCreateResponseSchema, fieDateListResponseSchema, fieListQuerySchema, fieDocumentDetailSchema, fieDocumentViewSchema, fieListResponseSchema, fiePaths, fieUploadResponseSchema,
  reconciliationRowSchema, FIE_UPLOAD_MAX_FILES, type FieDocumentView, type FieUploadResponse,
} from '#shared/api/fie.ts';
import { pathFor } from '#shared/api/flows.ts';
import { encodeFieFile, type FieRawValues } from '#shared/fie/encode.ts';
import { filterFieDocuments } from '#shared/fie/list-filter.ts';
import { sampleFieChunks } from '#shared/fie/sample.ts';
import type { Database } from '../../db/schema.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { linkPc } from '../devices/test-support.ts';

const NOW = new Date('2025-02-10T09:00:00.000Z');
const FIE_TABLES: (keyof Database)[] = ['fie_documents', 'fie_entries', 'fie_document_entries'];

/** A worker's raw FIE values: name, surnames, NIF (14 wide, zero padded), company and CCC. */
function worker(name: string, surname: string, nif: string, company: string, ccc: string): FieRawValues {
  return { 310: ccc, 320: '0111', 530: company, 670: nif.padStart(14, '0'), 820: surname, 840: name };
}

const MARIA = worker('MARÍA', 'PEÑA', '12345678Z', 'ASESORÍA NÚÑEZ SL', '28123456789');
const JOSE = worker('JOSÉ', 'GARCÍA', '87654321X', 'TALLERES ORTEGA SA', '08765432101');
const LUCIA = worker('LUCÍA', 'IBÁÑEZ', '11111111H', 'TALLERES ORTEGA SA', '08765432101');
const ANGEL = worker('ÁNGEL', 'LÓPEZ', '22222222J', 'ASESORÍA NÚÑEZ SL', '28123456789');

/** An open baja of common illness (incident 2). */
const mariaBaja: FieRawValues = { ...MARIA, 1020: '20250110', 1060: '0003', 1090: '1', 1100: 'S', 1170: 'N' };
/** A two-day leave ended by an alta (incident 7, short). */
const joseAlta: FieRawValues = { ...JOSE, 1020: '20250105', 1090: '3', 1150: '20250106', 1170: 'N' };
/** Another benefit (dop): shown disabled, never synced. */
const luciaDop: FieRawValues = { ...LUCIA, 1910: '01' };
/** A confirmation of Ángel's leave (cit), still open. */
const angelCit: FieRawValues = { ...ANGEL, 1020: '20250112', 1090: '2', 1520: '20250119', 1530: '01', 1170: 'N' };

const fileA = encodeFieFile({ date: '20250115', entries: [mariaBaja, joseAlta, luciaDop] });
/** The INSS resends María's baja in the next file, with Ángel's confirmation. */
const fileB = encodeFieFile({ date: '20250120', entries: [mariaBaja, angelCit] });

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c6300010000050001', 'hex');

function multipart(files: readonly { name: string; data: Buffer | string }[], field = 'files'): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----fie${randomUUID()}`;
  const parts = files.flatMap((file) => [
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    Buffer.isBuffer(file.data) ? file.data : Buffer.from(file.data, 'latin1'),
    Buffer.from('\r\n'),
  ]);
  return { payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function upload(jar: CookieJar, files: readonly { name: string; data: Buffer | string }[]): Promise<FieUploadResponse> {
  const { payload, headers } = multipart(files);
  const response = await jar.request({ method: 'POST', url: fiePaths.upload, payload, headers });
  expect(response.statusCode, response.body).toBe(200);
  return fieUploadResponseSchema.parse(response.json());
}

async function list(jar: CookieJar, query = ''): Promise<FieDocumentView[]> {
  const response = await jar.get(`${fiePaths.fie}${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return fieListResponseSchema.parse(response.json()).items;
}

/** Each listed document as its file name (or id) and the NIFs of its listed entries. */
const shape = (documents: FieDocumentView[]) => documents.map((document) => [document.fileName ?? document._id, document.entries.map((entry) => entry.nif)]);

/** An Excel form of the FIE: a header row of field codes, one entry per row. */
function excelFie(rows: (string | number)[][]): Buffer {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['670', '840', '820', '530', '310', '1020', '1090'], ...rows]), 'FIE');
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

let server: TestServer;
let ana: CookieJar;
let eva: CookieJar;
beforeEach(async () => {
  server = await startTestServer({ now: () => NOW, scheduleRunnerIntervalMs: 0, fileRetention: { sweepIntervalMs: 0 } });
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
  eva = await registerUser(server.app, 'eva@otra.es', 'Eva Ruiz');
});
afterEach(async () => server.close());

describe('POST /api/fie/upload', () => {
  it('stores each file once, links entries the INSS resends, and tells failed and repeated files apart', async () => {
    const first = await upload(ana, [
      { name: 'fie-enero.txt', data: fileA },
      { name: 'notas.fie', data: 'Esto no es un FIE\r\n' },
      { name: 'copia.fie', data: fileA },
      { name: 'fie-20-enero.fie', data: fileB },
    ]);
    expect(first.results.map((result) => [result.fileName, result.status, result.entries, result.linkedEntries])).toEqual([
      ['fie-enero.txt', 'processed', 3, 0],
      ['notas.fie', 'failed', 0, 0],
      ['copia.fie', 'already-added', 0, 0],
      ['fie-20-enero.fie', 'processed', 2, 1],
    ]);
    expect([first.processed, first.failed, first.alreadyAdded]).toEqual([2, 1, 1]);
    expect(first.results[1]?.reason).toMatch(/^No es un FIE/);
    expect(first.results[2]?.documentId).toBe(first.results[0]?.documentId);
    // María's baja is one entry linked from both documents.
    expect(server.countTables(FIE_TABLES)).toEqual({ fie_documents: 2, fie_entries: 4, fie_document_entries: 5 });
    const warnings = server.logLines().filter((line) => line.msg === 'Error al procesar un FIE [texto]');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40, fileName: 'notas.fie', reason: first.results[1]?.reason });

    // The same file in a later request: already added, nothing written.
    const again = await upload(ana, [{ name: 'otra-vez.txt', data: fileB }]);
    expect(again.results[0]).toMatchObject({ status: 'already-added', documentId: first.results[3]?.documentId });
    expect(server.countTables(FIE_TABLES)).toEqual({ fie_documents: 2, fie_entries: 4, fie_document_entries: 5 });

    const documents = await list(ana);
    expect(shape(documents)).toEqual([
      ['fie-20-enero.fie', ['12345678Z', '22222222J']],
      ['fie-enero.txt', ['12345678Z', '87654321X', '11111111H']],
    ]);
    const [newer, older] = documents as [FieDocumentView, FieDocumentView];
    expect(newer).toMatchObject({ date: '2025-01-20', registryDate: '20/01/2025', source: 'text', version: 'FIE4', entryCount: 2 });
    expect(older.entries.map((entry) => [entry.type, entry.typeLabel, entry.disabled, entry.a3sync])).toEqual([
      ['baja', 'Baja por incapacidad temporal', false, 'pending'],
      ['alta', 'Alta del trabajador/a', false, 'pending'],
      ['dop', 'Datos de otras prestaciones', true, 'excluded'],
    ]);
    expect(older.entries[1]).toMatchObject({
      fullname: 'JOSÉ GARCÍA',
      companyName: 'TALLERES ORTEGA SA',
      ccc: '08765432101',
      formattedCcc: '08/7654321/01',
      registrationDate: '2025-01-15',
      leaveStart: '2025-01-05',
      leaveEnd: '2025-01-06',
      duration: 2,
      shortDuration: true,
      isCanceled: false,
      contingency: 'Accidente de trabajo',
      incidence: { code: 7, label: 'Fin IT' },
      lastError: null,
    });
    expect(older.entries[0]).toMatchObject({ contingency: 'Enfermedad común', incidence: { code: 2, label: 'Inicio I.T. (Enfermedad) o Pago Directo INSS' }, duration: null });
    expect(newer.entries[0]?._id).toBe(older.entries[0]?._id);
  });

  it('judges files by their content, never their name: a PNG named .fie fails, an Excel form and a FIE named .txt are read', async () => {
    const outcome = await upload(ana, [
      { name: 'parte.fie', data: PNG },
      { name: 'parte.txt', data: fileA },
      { name: 'formulario.xlsx', data: excelFie([['12345678Z', 'MARÍA', 'PEÑA', 'ASESORÍA NÚÑEZ SL', '28123456789', '10/01/2025', 1]]) },
      { name: 'fie5.fie', data: fileA.replaceAll('FIE4', 'FIE5') },
      { name: 'hoja.xlsx', data: excelFie([]).subarray(0, 200) },
    ]);
    expect(outcome.results.map((result) => [result.fileName, result.status])).toEqual([
      ['parte.fie', 'failed'],
      ['parte.txt', 'processed'],
      ['formulario.xlsx', 'processed'],
      ['fie5.fie', 'failed'],
      ['hoja.xlsx', 'failed'],
    ]);
    expect(outcome.results[3]?.reason).toMatch(/FIE5/);
    expect(outcome.results[4]?.reason).toBeTruthy();
    const excel = (await list(ana)).find((document) => document.fileName === 'formulario.xlsx');
    expect(excel).toMatchObject({ source: 'excel', version: null, entryCount: 1 });
    // Dates and codes of the Excel form are read as the text form's.
    expect(excel?.entries[0]).toMatchObject({ nif: '12345678Z', leaveStart: '2025-01-10', contingency: 'Enfermedad común' });
    expect(server.logLines().filter((line) => line.msg === 'Error al procesar un FIE [excel]').map((line) => line.fileName)).toEqual(['hoja.xlsx']);
    expect(server.logLines().filter((line) => line.msg === 'Error al procesar un FIE [texto]').map((line) => line.fileName)).toEqual(['parte.fie', 'fie5.fie']);
  });

  it('decodes a big file in batches off the request thread, and accepts a linked device', async () => {
    const link = await linkPc(ana, 'oficina');
    const big = [...sampleFieChunks(1_500, 500)].join('');
    const { payload, headers } = multipart([{ name: 'siltra.fie', data: big }]);
    const device = { ...headers, authorization: `Device ${link.deviceToken}` };
    const wrongSource = await server.app.inject({ method: 'POST', url: `${fiePaths.upload}?source=correo`, payload, headers: device });
    expect(wrongSource.statusCode).toBe(400);
    expect(server.countTables(FIE_TABLES)).toEqual({ fie_documents: 0, fie_entries: 0, fie_document_entries: 0 });
    // The desktop says where it fetched the file.
    const response = await server.app.inject({ method: 'POST', url: `${fiePaths.upload}?source=siltra`, payload, headers: device });
    expect(response.statusCode, response.body).toBe(200);
    expect(fieUploadResponseSchema.parse(response.json()).results[0]).toMatchObject({ status: 'processed', entries: 1_500 });
    expect(server.countRows('fie_document_entries')).toBe(1_500);
    const [document] = await list(ana);
    expect([document?.source, document?.entries.length]).toEqual(['siltra', 1_500]);
  });

  it('writes a big file batch by batch: other requests are answered meanwhile and the half-written document is not listed', async () => {
    // Small batches: the import spans many short transactions. One transaction for the whole file would hold
    // SQLite's only connection, so the list below would wait for the upload to end.
    const batched = await startTestServer({ now: () => NOW, scheduleRunnerIntervalMs: 0, fileRetention: { sweepIntervalMs: 0 }, fieDecoder: { batchSize: 25 } });
    try {
      const jar = await registerUser(batched.app, 'lote@asesoria.es');
      const { payload, headers } = multipart([{ name: 'anual.fie', data: [...sampleFieChunks(1_000, 500)].join('') }]);
      let uploaded = false;
      const uploading = jar.request({ method: 'POST', url: fiePaths.upload, payload, headers }).then((response) => {
        uploaded = true;
        return response;
      });
      await expect.poll(() => batched.countRows('fie_entries'), { interval: 5, timeout: 30_000 }).toBeGreaterThan(0);
      const during = await list(jar);
      expect(uploaded).toBe(false);
      expect(during).toEqual([]);
      const response = await uploading;
      expect(fieUploadResponseSchema.parse(response.json()).results[0]).toMatchObject({ status: 'processed', entries: 1_000 });
      expect((await list(jar)).map((document) => [document.fileName, document.entryCount])).toEqual([['anual.fie', 1_000]]);
    } finally {
      await batched.close();
    }
  }, 60_000);

  it('stores an entry repeated within one file once', async () => {
    const outcome = await upload(ana, [{ name: 'doble.fie', data: encodeFieFile({ entries: [mariaBaja, mariaBaja, joseAlta] }) }]);
    expect(outcome.results[0]).toMatchObject({ status: 'processed', entries: 3, linkedEntries: 0 });
    const [document] = await list(ana);
    expect([document?.entryCount, document?.entries.map((entry) => entry.nif)]).toEqual([2, ['12345678Z', '87654321X']]);
    expect(server.countTables(FIE_TABLES)).toEqual({ fie_documents: 1, fie_entries: 2, fie_document_entries: 2 });
  });

  it('refuses more than FIE_UPLOAD_MAX_FILES files at once, before storing any', async () => {
    const files = Array.from({ length: FIE_UPLOAD_MAX_FILES + 1 }, (_, index) => ({ name: `fie-${index}.fie`, data: fileA }));
    const { payload, headers } = multipart(files);
    const response = await ana.request({ method: 'POST', url: fiePaths.upload, payload, headers });
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toBe(`Sube como máximo ${FIE_UPLOAD_MAX_FILES} archivos a la vez`);
    expect(server.countTables(FIE_TABLES)).toEqual({ fie_documents: 0, fie_entries: 0, fie_document_entries: 0 });
  });

  it('gives up on a file that takes longer than the time limit, and keeps none of its entries', async () => {
    const slow = await startTestServer({ now: () => NOW, scheduleRunnerIntervalMs: 0, fileRetention: { sweepIntervalMs: 0 }, fieDecoder: { timeLimitMs: 200, batchSize: 5 } });
    try {
      const jar = await registerUser(slow.app, 'lenta@asesoria.es');
      const { payload, headers } = multipart([{ name: 'grande.fie', data: [...sampleFieChunks(20_000)].join('') }]);
      const response = await jar.request({ method: 'POST', url: fiePaths.upload, payload, headers });
      expect(response.statusCode, response.body).toBe(200);
      expect(fieUploadResponseSchema.parse(response.json()).results[0]).toMatchObject({ status: 'failed', reason: 'Leer el FIE lleva más de 1 s, el máximo. Divídelo en archivos más pequeños.' });
      expect(slow.countTables(FIE_TABLES)).toEqual({ fie_documents: 0, fie_entries: 0, fie_document_entries: 0 });
    } finally {
      await slow.close();
    }
  });

  it('refuses a request that is not multipart, has no file, or has no valid credentials', async () => {
    expect((await ana.post(fiePaths.upload, { files: [] })).statusCode).toBe(415);
    const empty = multipart([]);
    const none = await ana.request({ method: 'POST', url: fiePaths.upload, ...empty });
    expect(none.statusCode).toBe(400);
    const anonymous = multipart([{ name: 'a.fie', data: fileA }]);
    expect((await server.app.inject({ method: 'POST', url: fiePaths.upload, ...anonymous })).statusCode).toBe(401);
    expect((await server.app.inject({ method: 'POST', url: fiePaths.upload, payload: anonymous.payload, headers: { ...anonymous.headers, authorization: 'Device nope' } })).statusCode).toBe(401);
    expect(server.countTables(FIE_TABLES)).toEqual({ fie_documents: 0, fie_entries: 0, fie_document_entries: 0 });
  });
});

describe('GET /api/fie', () => {
  beforeEach(async () => {
    await upload(ana, [
      { name: 'a.fie', data: fileA },
      { name: 'b.fie', data: fileB },
    ]);
  });

  it('filters by folded text, type, range and A3 state, and lists only documents with matching entries', async () => {
    expect(shape(await list(ana, '?q=pena'))).toEqual([['b.fie', ['12345678Z']], ['a.fie', ['12345678Z']]]);
    expect(shape(await list(ana, `?q=${encodeURIComponent('  Núñez ')}`))).toEqual([['b.fie', ['12345678Z', '22222222J']], ['a.fie', ['12345678Z']]]);
    expect(shape(await list(ana, '?q=87654321x'))).toEqual([['a.fie', ['87654321X']]]);
    expect(shape(await list(ana, '?q=100%25'))).toEqual([]);
    expect(shape(await list(ana, '?type=dop,cit'))).toEqual([['b.fie', ['22222222J']], ['a.fie', ['11111111H']]]);
    // entry_date: the leave start, else the file's date (the dop has no leave: 2025-01-15).
    expect(shape(await list(ana, '?from=2025-01-06&to=2025-01-12'))).toEqual([['b.fie', ['12345678Z', '22222222J']], ['a.fie', ['12345678Z']]]);
    expect(shape(await list(ana, '?from=2025-01-15&to=2025-01-15'))).toEqual([['a.fie', ['11111111H']]]);
    expect(shape(await list(ana, '?a3=excluded'))).toEqual([['a.fie', ['11111111H']]]);
    expect(shape(await list(ana, '?a3=synced'))).toEqual([]);
  });

  it('filters as the screen does over the list it holds (shared/fie/list-filter.ts), case by case', async () => {
    const whole = await list(ana);
    const queries = ['?q=pena', `?q=${encodeURIComponent('  Núñez ')}`, '?q=87654321x', '?q=100%25', '?q=ortega%20sa', '?type=dop,cit', '?type=alta',
      '?from=2025-01-06&to=2025-01-12', '?from=2025-01-15', '?to=2025-01-05', '?a3=excluded', '?a3=pending&type=baja', '?q=garcia&type=baja'];
    for (const query of queries) {
      const parsed = fieListQuerySchema.parse(Object.fromEntries(new URLSearchParams(query)));
      expect(shape(filterFieDocuments(whole, parsed)), query).toEqual(shape(await list(ana, query)));
    }
  });

  it('answers only the dates with select=date', async () => {
    const response = await ana.get(`${fiePaths.fie}?select=date`);
    expect(response.statusCode).toBe(200);
    const items = fieDateListResponseSchema.parse(response.json()).items;
    expect(items.map((item) => item.date)).toEqual(['2025-01-20', '2025-01-15']);
    expect(Object.keys(response.json().items[0]).sort()).toEqual(['_id', 'date']);
  });

  it('refuses bad filters with a 400 in Spanish', async () => {
    for (const query of ['?type=otro', '?from=15/01/2025', '?a3=done', '?select=all']) {
      const response = await ana.get(`${fiePaths.fie}${query}`);
      expect([query, response.statusCode]).toEqual([query, 400]);
    }
    expect((await ana.get(`${fiePaths.fie}?type=otro`)).json().issues).toEqual([{ path: 'type', message: 'Tipo de parte no válido' }]);
  });

  it('keeps each firm to its own documents', async () => {
    const [document] = await list(ana);
    expect(await list(eva)).toEqual([]);
    expect((await eva.get(`${fiePaths.fie}?select=date`)).json().items).toEqual([]);
    const url = pathFor(fiePaths.document, { id: document?._id ?? '' });
    expect((await eva.get(url)).statusCode).toBe(404);
    expect((await eva.request({ method: 'DELETE', url })).statusCode).toBe(404);
    expect((await eva.put(fiePaths.fie, { _id: document?._id, entries: [{ 670: { value: '12345678Z' } }] })).statusCode).toBe(404);
    expect((await eva.get(fiePaths.reconciliation)).json().items).toEqual([]);
    expect(server.countTables(FIE_TABLES)).toEqual({ fie_documents: 2, fie_entries: 4, fie_document_entries: 5 });
    const detail = fieDocumentDetailSchema.parse((await ana.get(url)).json());
    expect(detail.entries[0]?.fields['670']).toMatchObject({ value: '0000012345678Z', normalizedValue: '12345678Z', label: 'NIF' });
  });
});

describe('POST, PATCH, PUT and DELETE /api/fie', () => {
  it('creates a document from fields with 310, replaces its entries, and deletes only what no other document has', async () => {
    const created = await ana.post(fiePaths.fie, {
      date: '2025-01-15',
      entries: [
        { 310: { value: '28123456789' }, 670: { value: '12345678Z' }, 840: { value: 'MARÍA' }, 820: { value: 'PEÑA' }, 1020: { value: '20250110' }, 1090: { value: '1' } },
        { 310: { value: '28123456789' }, 670: { value: '33333333P' }, 840: { value: 'EVA' }, 1020: { value: '20250111' }, 1090: { value: '2' } },
      ],
    });
    expect(created.statusCode, created.body).toBe(201);
    const { _id, entries } = fieCreateResponseSchema.parse(created.json());
    expect(entries[0]?.['310']).toMatchObject({ value: '28123456789', label: 'CCC', section: 'EMP' });
    expect(entries[0]?.['1020']).toMatchObject({ normalizedValue: '2025-01-10' });

    let [document] = await list(ana);
    expect(document).toMatchObject({ _id, source: 'api', fileName: null, date: '2025-01-15', registryDate: '15/01/2025', entryCount: 2 });
    expect(document?.entries.map((entry) => [entry.fullname, entry.type, entry.incidence?.code])).toEqual([['MARÍA PEÑA', 'baja', 2], ['EVA', 'baja', 2]]);
    const keptId = document?.entries[0]?._id;

    // A3 took María's baja: an update that keeps it keeps its state.
    expect((await ana.post(fiePaths.a3Results, { results: [{ entryId: keptId, state: 'synced', error: null }] })).json()).toEqual({ updated: 1 });
    const patched = await ana.patch(fiePaths.fie, {
      _id,
      entries: [
        { 310: { value: '28123456789' }, 670: { value: '12345678Z' }, 840: { value: 'MARÍA' }, 820: { value: 'PEÑA' }, 1020: { value: '20250110' }, 1090: { value: '1' } },
        { 670: { value: '44444444A' }, 840: { value: 'LUIS' }, 1020: { value: '20250105' }, 1150: { value: '20250109' } },
      ],
    });
    expect(patched.statusCode, patched.body).toBe(200);
    document = fieDocumentViewSchema.parse(patched.json());
    expect(document.entries.map((entry) => [entry.nif, entry.type, entry.a3sync])).toEqual([['12345678Z', 'baja', 'synced'], ['44444444A', 'alta', 'pending']]);
    expect(document.entries[0]?._id).toBe(keptId);
    expect(server.countTables(FIE_TABLES)).toEqual({ fie_documents: 1, fie_entries: 2, fie_document_entries: 2 });

    const put = await ana.put(fiePaths.fie, { _id, entries: [{ 670: { value: '55555555K' }, 840: { value: 'RAQUEL' }, 1910: { value: '01' } }] });
    expect(put.statusCode, put.body).toBe(200);
    expect(fieDocumentViewSchema.parse(put.json()).entries.map((entry) => [entry.nif, entry.type, entry.disabled, entry.a3sync])).toEqual([['55555555K', 'dop', true, 'excluded']]);

    // Files that share an entry: deleting one keeps what the other still links.
    const uploaded = await upload(ana, [{ name: 'b.fie', data: fileB }]);
    const bId = uploaded.results[0]?.documentId ?? '';
    const again = await upload(ana, [{ name: 'b2.fie', data: encodeFieFile({ date: '20250120', entries: [angelCit] }) }]);
    expect(again.results[0]).toMatchObject({ status: 'processed', linkedEntries: 1 });
    expect((await ana.request({ method: 'DELETE', url: pathFor(fiePaths.document, { id: bId }) })).statusCode).toBe(204);
    // Ángel's confirmation stays: b2 still links it. María's baja of b.fie went with it.
    expect(shape(await list(ana, '?q=lopez'))).toEqual([['b2.fie', ['22222222J']]]);
    expect(server.countTables(FIE_TABLES)).toEqual({ fie_documents: 2, fie_entries: 2, fie_document_entries: 2 });
    expect((await ana.request({ method: 'DELETE', url: pathFor(fiePaths.document, { id: bId }) })).statusCode).toBe(404);
  });

  it('refuses bad bodies with a 400 in Spanish and writes nothing', async () => {
    const bad = [
      { date: '2025-01-15', entries: [] },
      { date: '15/01/2025', entries: [{ 670: { value: '1' } }] },
      { date: '2025-01-15', entries: [{ abc: { value: '1' } }] },
      { date: '2025-01-15', entries: [{ 670: { value: 'x'.repeat(401) } }] },
      { date: '2025-01-15', entries: [{ 670: { value: '1' } }], extra: true },
    ];
    for (const body of bad) {
      const response = await ana.post(fiePaths.fie, body);
      expect([JSON.stringify(body).slice(0, 60), response.statusCode]).toEqual([JSON.stringify(body).slice(0, 60), 400]);
      expect(response.json().message).toBe('Revisa los datos enviados');
    }
    expect((await ana.post(fiePaths.fie, bad[0])).json().issues).toEqual([{ path: 'entries', message: 'El FIE no tiene partes' }]);
    expect((await ana.patch(fiePaths.fie, { entries: [{ 670: { value: '1' } }] })).statusCode).toBe(400);
    expect((await ana.post(fiePaths.a3Results, { results: [] })).statusCode).toBe(400);
    expect((await ana.post(fiePaths.a3Records, { entryIds: [] })).json().issues).toEqual([{ path: 'entryIds', message: 'Selecciona al menos un parte' }]);
    expect(server.countTables(FIE_TABLES)).toEqual({ fie_documents: 0, fie_entries: 0, fie_document_entries: 0 });
  });
});

describe('A3: export, records, results and reconciliation', () => {
  let entries: Map<string, FieDocumentView['entries'][number]>;
  let documentA: string;
  beforeEach(async () => {
    const uploaded = await upload(ana, [
      { name: 'a.fie', data: fileA },
      { name: 'b.fie', data: fileB },
    ]);
    documentA = uploaded.results[0]?.documentId ?? '';
    entries = new Map((await list(ana)).flatMap((document) => document.entries).map((entry) => [entry.nif ?? '', entry]));
  });
  const idOf = (nif: string) => entries.get(nif)?._id ?? '';

  it('exports the robot’s incidences workbook of the caller’s entries', async () => {
    const response = await ana.post(fiePaths.exportA3, { entryIds: [idOf('12345678Z'), idOf('87654321X')] });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(response.headers['content-disposition']).toContain('incidencias-a3.xlsx');
    const book = XLSX.read(response.rawPayload, { type: 'buffer' });
    expect(book.SheetNames).toEqual(['Incidencias']);
    const rows = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets.Incidencias as XLSX.WorkSheet, { header: 1, raw: false });
    expect(rows[0]).toEqual([...INCIDENCIAS_HEADER]);
    expect(rows.slice(1).map((row) => [row[0], row[1], row[3], row[4], row[8], row[10], row[12]])).toEqual([
      // fieId is the document that brought the entry first.
      [documentA, '12345678Z', '10/01/2025', '2', '28/1234567/89', undefined, 'No'],
      [documentA, '87654321X', '06/01/2025', '7', '08/7654321/01', '05/01/2025', 'No'],
    ]);
    const foreign = await eva.post(fiePaths.exportA3, { entryIds: [idOf('12345678Z')] });
    expect(foreign.statusCode).toBe(404);
  });

  it('gives A3 sync records with their entry, refuses disabled types, and stores what A3 answered', async () => {
    const records = await ana.post(fiePaths.a3Records, { entryIds: [idOf('12345678Z'), idOf('22222222J')] });
    expect(records.statusCode, records.body).toBe(200);
    expect(records.json().records).toEqual([
      expect.objectContaining({ entryId: idOf('12345678Z'), fieId: documentA, dniEmpleado: '12345678Z', incidencia: 2, carencia: true, diasAcumulados: 3, formatedccc: '28/1234567/89' }),
      expect.objectContaining({ entryId: idOf('22222222J'), dniEmpleado: '22222222J', incidencia: 2, fechaFormateada: '12/01/2025' }),
    ]);
    const disabled = await ana.post(fiePaths.a3Records, { entryIds: [idOf('11111111H'), idOf('12345678Z')] });
    expect(disabled.statusCode).toBe(400);
    expect(disabled.json().message).toContain('dop');
    expect((await eva.post(fiePaths.a3Records, { entryIds: [idOf('12345678Z')] })).statusCode).toBe(404);

    const link = await linkPc(ana, 'oficina');
    const device = (url: string, payload: unknown) => server.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers: { authorization: `Device ${link.deviceToken}` } });
    const results = await device(fiePaths.a3Results, {
      runId: 'run-1',
      results: [
        { entryId: idOf('12345678Z'), state: 'synced', error: null },
        { entryId: idOf('87654321X'), state: 'error', error: 'Trabajador 87654321X no encontrado en la empresa' },
        { entryId: idOf('11111111H'), state: 'synced', error: null },
      ],
    });
    expect(results.statusCode, results.body).toBe(200);
    expect(results.json()).toEqual({ updated: 2 });
    // Another firm's answer about these entries changes nothing.
    expect((await eva.post(fiePaths.a3Results, { results: [{ entryId: idOf('12345678Z'), state: 'error', error: 'x' }] })).json()).toEqual({ updated: 0 });

    const after = new Map((await list(ana)).flatMap((document) => document.entries).map((entry) => [entry.nif, entry]));
    expect(after.get('12345678Z')).toMatchObject({ a3sync: 'synced', a3SyncedAt: NOW.toISOString(), lastError: null });
    expect(after.get('87654321X')).toMatchObject({ a3sync: 'error', a3SyncedAt: null, lastError: 'Trabajador 87654321X no encontrado en la empresa' });
    expect(after.get('11111111H')).toMatchObject({ a3sync: 'excluded' });
    expect(shape(await list(ana, '?a3=error'))).toEqual([['a.fie', ['87654321X']]]);
  });

  it('lists the workers with an open baja and whether A3 has it', async () => {
    await ana.post(fiePaths.a3Results, { results: [{ entryId: idOf('22222222J'), state: 'synced', error: null }] });
    const response = await ana.get(fiePaths.reconciliation);
    expect(response.statusCode).toBe(200);
    const items = response.json().items.map((item: unknown) => reconciliationRowSchema.parse(item));
    // José's leave ended (alta) and Lucía's entry is no baja: only María and Ángel are open.
    expect(items).toEqual([
      { nif: '12345678Z', fullname: 'MARÍA PEÑA', companyName: 'ASESORÍA NÚÑEZ SL', ccc: '28123456789', entryId: idOf('12345678Z'), leaveStart: '2025-01-10', daysOpen: 32, a3sync: 'pending', pendingEntries: 1 },
      { nif: '22222222J', fullname: 'ÁNGEL LÓPEZ', companyName: 'ASESORÍA NÚÑEZ SL', ccc: '28123456789', entryId: idOf('22222222J'), leaveStart: '2025-01-12', daysOpen: 30, a3sync: 'synced', pendingEntries: 0 },
    ]);

    // An alta for María closes her baja.
    await upload(ana, [{ name: 'c.fie', data: encodeFieFile({ date: '20250201', entries: [{ ...mariaBaja, 1150: '20250131' }] }) }]);
    const open = (await ana.get(fiePaths.reconciliation)).json().items.map((item: { nif: string }) => item.nif);
    expect(open).toEqual(['22222222J']);
  });
});
