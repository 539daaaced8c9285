/** The FIE API's reads and writes: list filters, create/update/delete, isolation, and the A3 paths (uploads: fie-upload.test.ts). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import { INCIDENCIAS_HEADER } from '#shared/a3/incidences-sheet.ts';
import {
  fieCreateResponseSchema, fieDateListResponseSchema, fieDocumentDetailSchema, fieDocumentViewSchema, fieListQuerySchema, fiePaths, reconciliationRowSchema, type FieDocumentView,
} from '#shared/api/fie.ts';
import { pathFor } from '#shared/api/flows.ts';
import { encodeFieFile } from '#shared/fie/encode.ts';
import { filterFieDocuments } from '#shared/fie/list-filter.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { linkPc } from '../devices/test-support.ts';
import { NOW, FIE_TABLES, mariaBaja, angelCit, fileA, fileB, shape, upload, list } from './test-support.ts';

let server: TestServer;
let ana: CookieJar;
let eva: CookieJar;
beforeEach(async () => {
  server = await startTestServer({ now: () => NOW, scheduleRunnerIntervalMs: 0, fileRetention: { sweepIntervalMs: 0 } });
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
  eva = await registerUser(server.app, 'eva@otra.es', 'Eva Ruiz');
});
afterEach(async () => server.close());

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
    expect(rows.slice(1).map((row) => [row[0], row[1], row[4], row[5], row[9], row[11], row[13]])).toEqual([
      // 'Archivo' names the file that brought the entry first, not its internal id (issue 43, 8).
      ['a.fie', '12345678Z', '10/01/2025', '2', '28/1234567/89', undefined, 'No'],
      ['a.fie', '87654321X', '06/01/2025', '7', '08/7654321/01', '05/01/2025', 'No'],
    ]);
    // The worker's name, carencia as the FIE says it, and the dates as date cells (issue 43, 8).
    const sheet = XLSX.read(response.rawPayload, { type: 'buffer', cellNF: true }).Sheets.Incidencias as XLSX.WorkSheet;
    // José's alta says no carencia: an empty cell, not a 'No' the FIE never said.
    expect(rows.slice(1).map((row) => [row[2], row[6]])).toEqual([['MARÍA PEÑA', 'Sí'], ['JOSÉ GARCÍA', undefined]]);
    expect(sheet.E2).toMatchObject({ t: 'n', z: 'dd/mm/yyyy', w: '10/01/2025' });
    expect(sheet.L3).toMatchObject({ t: 'n', z: 'dd/mm/yyyy', w: '05/01/2025' });
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
    // José's leave ended (alta) and Lucía's entry is no baja: only María and Ángel are open, by surname.
    expect(items).toEqual([
      { nif: '22222222J', fullname: 'ÁNGEL LÓPEZ', sortName: 'LÓPEZ, ÁNGEL', companyName: 'ASESORÍA NÚÑEZ SL', ccc: '28123456789', entryId: idOf('22222222J'), leaveStart: '2025-01-12', daysOpen: 30, a3sync: 'synced', pendingEntries: 0 },
      { nif: '12345678Z', fullname: 'MARÍA PEÑA', sortName: 'PEÑA, MARÍA', companyName: 'ASESORÍA NÚÑEZ SL', ccc: '28123456789', entryId: idOf('12345678Z'), leaveStart: '2025-01-10', daysOpen: 32, a3sync: 'pending', pendingEntries: 1 },
    ]);

    // An alta for María closes her baja.
    await upload(ana, [{ name: 'c.fie', data: encodeFieFile({ date: '20250201', entries: [{ ...mariaBaja, 1150: '20250131' }] }) }]);
    const open = (await ana.get(fiePaths.reconciliation)).json().items.map((item: { nif: string }) => item.nif);
    expect(open).toEqual(['22222222J']);
  });
});
