/** POST /api/fie/upload: content not name, dedupe and linking, limits, batches off the request thread, devices. */
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fiePaths, fieUploadResponseSchema, FIE_UPLOAD_MAX_FILES, type FieDocumentDetail, type FieDocumentView } from '#shared/api/fie.ts';
import { pathFor } from '#shared/api/flows.ts';
import { encodeFieFile } from '#shared/fie/encode.ts';
import { sampleFieChunks } from '#shared/fie/sample.ts';
import { sampleFieWorkbook } from '#shared/fie/sample-workbook.ts';
import { decodeFieSpreadsheet } from '#shared/fie/spreadsheet.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { linkPc } from '../devices/test-support.ts';
import { NOW, FIE_TABLES, mariaBaja, joseAlta, fileA, fileB, PNG, shape, multipart, excelFie, upload, list } from './test-support.ts';

let server: TestServer;
let ana: CookieJar;
beforeEach(async () => {
  server = await startTestServer({ now: () => NOW, scheduleRunnerIntervalMs: 0, fileRetention: { sweepIntervalMs: 0 } });
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
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
    // Dates and codes of the Excel form are read as the text form's. (The list shows María's baja once,
    // as parte.txt's, the later registration of the same parte: the document's detail has its own.)
    const detail = await ana.get(pathFor(fiePaths.document, { id: excel?._id ?? '' }));
    expect(detail.json<FieDocumentDetail>().entries[0]).toMatchObject({ nif: '12345678Z', leaveStart: '2025-01-10', contingency: 'Enfermedad común' });
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

  it('reads an .xlsx export row by row in batches, with the entries SheetJS reads; a sheet broken part-way keeps none', async () => {
    const workbook = sampleFieWorkbook(1_500);
    const outcome = await upload(ana, [{ name: 'anual.xlsx', data: Buffer.from(workbook) }]);
    expect(outcome.results[0]).toMatchObject({ status: 'processed', entries: 1_500 });
    const [document] = await list(ana);
    const expected = decodeFieSpreadsheet(workbook);
    expect(document).toMatchObject({ source: 'excel', entryCount: 1_500, registryDate: expected.registryDate });
    expect(document?.entries.map((entry) => entry.nif).sort()).toEqual(expected.entries.map((entry) => entry.nif).sort());

    const files = unzipSync(sampleFieWorkbook(800));
    files['xl/worksheets/sheet1.xml'] = strToU8(strFromU8(files['xl/worksheets/sheet1.xml'] ?? new Uint8Array()).replace('<row r="700"', '<row r="700" <roto'));
    const broken = await upload(ana, [{ name: 'rota.xlsx', data: Buffer.from(zipSync(files)) }]);
    expect(broken.results[0]).toMatchObject({ status: 'failed', entries: 0 });
    expect(broken.results[0]?.reason).toContain('La hoja «Partes» está dañada');
    expect(server.countRows('fie_documents')).toBe(1);
  });

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
