import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as XLSX from 'xlsx';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pathFor, flowsPaths, type UploadedFile } from '#shared/api/flows.ts';
import { decodeFie } from '#shared/fie/decode.ts';
import { connectDatabase } from '../../db/connect.ts';
import { zipBombXlsx } from '../../files/testing.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { multipart, upload, workbook } from '../runs/test-support.ts';
import { workbookColumns } from './workbook.ts';

/** Every file under the test server's storage folder. */
async function storedOnDisk(server: TestServer): Promise<string[]> {
  return readdir(join(server.dir, 'storage'), { recursive: true, withFileTypes: true }).then(
    (entries) => entries.filter((entry) => entry.isFile()).map((entry) => entry.name),
    () => [],
  );
}

describe('/api/storage/uploads', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(async () => server.close());

  it('stores uploads under normalised names and reads a workbook’s header and row count', async () => {
    const jar = await registerUser(server.app, 'sube@asesoria.es');
    const items = await upload(jar, [
      { name: ' plantilla: enero?.xlsx', data: workbook([['Listado de enero'], [], ['NIF', 'Nombre', 'IBAN'], ['12345678Z', 'Ana', ''], ['X1234567L', 'Luis', 'ES12']]) },
      { name: 'notas.txt', data: 'hola' },
    ]);
    expect(items).toEqual([
      { id: expect.any(String), name: 'plantilla enero.xlsx', size: expect.any(Number) },
      { id: expect.any(String), name: 'notas.txt', size: 4 },
    ]);
    expect(await storedOnDisk(server)).toHaveLength(2);
    const columns = await jar.get(`/api/storage/uploads/${items[0]?.id}/columns`);
    expect(columns.statusCode).toBe(200);
    expect(columns.json()).toEqual({ sheet: 'Trabajadores', columns: ['NIF', 'Nombre', 'IBAN'], rowCount: 2 });
    const csv = await upload(jar, [{ name: 'lista.csv', data: 'NIF;Nombre\n12345678Z;Ana\n' }]);
    expect((await jar.get(`/api/storage/uploads/${csv[0]?.id}/columns`)).json()).toEqual({ sheet: 'lista', columns: ['NIF', 'Nombre'], rowCount: 1 });

    const notWorkbook = await jar.get(`/api/storage/uploads/${items[1]?.id}/columns`);
    expect(notWorkbook.statusCode).toBe(415);
    expect(notWorkbook.json()).toMatchObject({ code: 'NOT_A_WORKBOOK', message: '«notas.txt» no es un libro de Excel, ODS o CSV que se pueda leer' });
  });

  it('answers a workbook’s columns from what its upload’s inspection stored, without reading the file again', async () => {
    const jar = await registerUser(server.app, 'lista-larga@asesoria.es');
    const rows = Array.from({ length: 120_000 }, (_, index) => `${String(index).padStart(8, '0')}T;Persona ${index}`);
    const [file] = await upload(jar, [{ name: 'plantilla grande.csv', data: `DNI;Nombre\n${rows.join('\n')}\n` }]);
    const expected = { sheet: 'plantilla grande', columns: ['DNI', 'Nombre'], rowCount: 120_000 };
    expect(await storedRow(server, file?.id ?? '')).toMatchObject({ detected_type: 'csv', sheet_name: 'plantilla grande', sheet_columns: '["DNI","Nombre"]', row_count: 120_000 });
    // The file is gone from disk: the answer can only come from the stored inspection.
    await rm(join(server.dir, 'storage'), { recursive: true, force: true });
    const url = `/api/storage/uploads/${file?.id}/columns`;
    expect((await jar.get(url)).json()).toEqual(expected);
  }, 60_000);

  it('refuses a type outside the allowed list with 415 and keeps nothing, not even the files before it', async () => {
    const jar = await registerUser(server.app, 'tipo@asesoria.es');
    const { payload, headers } = multipart([
      { name: 'bien.pdf', data: '%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n' },
      { name: 'programa.exe', data: 'MZ' },
    ]);
    const response = await jar.request({ method: 'POST', url: '/api/storage/uploads', payload, headers });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({ code: 'FILE_TYPE_REFUSED', message: expect.stringContaining('No se admite el tipo de archivo de «programa.exe». Tipos admitidos: .txt, .msj,') });
    expect(server.countRows('stored_files')).toBe(0);
    expect(await storedOnDisk(server)).toEqual([]);
  });

  it('refuses more than 100,000,000 bytes with 413 showing both sizes, and keeps nothing', async () => {
    const jar = await registerUser(server.app, 'grande@asesoria.es');
    const { payload, headers } = multipart([
      { name: 'uno.csv', data: 'a;b\n1;2\n' },
      { name: 'enorme.csv', data: Buffer.alloc(100_000_001, 0x61) },
    ]);
    const response = await jar.request({ method: 'POST', url: '/api/storage/uploads', payload, headers });
    expect(response.statusCode).toBe(413);
    const body = response.json() as { code: string; message: string; details: Record<string, unknown> };
    expect(body.code).toBe('FILE_SIZE_EXCEEDED');
    expect(body.message).toBe('Los archivos ocupan 100 MB y el máximo es 100 MB');
    expect(body.details).toMatchObject({ limitBytes: 100_000_000, limit: '100 MB' });
    expect(Number(body.details.actualBytes)).toBeGreaterThan(100_000_000);
    expect(server.countRows('stored_files')).toBe(0);
    expect(await storedOnDisk(server)).toEqual([]);

    // Declared far over the limit: refused before a byte is stored, with the size the browser sent.
    const huge = multipart([{ name: 'enorme.csv', data: Buffer.alloc(101_000_000, 0x61) }]);
    const refused = await jar.request({ method: 'POST', url: '/api/storage/uploads', payload: huge.payload, headers: huge.headers });
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toMatchObject({ message: 'Los archivos ocupan 101 MB y el máximo es 100 MB' });
    expect(await storedOnDisk(server)).toEqual([]);
  }, 60_000);

  it('needs a session, a multipart body and at least one file', async () => {
    const { payload, headers } = multipart([{ name: 'a.txt', data: 'x' }]);
    expect((await server.app.inject({ method: 'POST', url: '/api/storage/uploads', payload, headers })).statusCode).toBe(401);
    const jar = await registerUser(server.app, 'vacio@asesoria.es');
    const json = await jar.post('/api/storage/uploads', { file: 'x' });
    expect(json.statusCode).toBe(415);
    const empty = multipart([]);
    const none = await jar.request({ method: 'POST', url: '/api/storage/uploads', payload: empty.payload, headers: empty.headers });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ issues: [{ path: 'file', message: 'Adjunta al menos un archivo' }] });
    expect(server.countRows('stored_files')).toBe(0);
  });

  it('answers 404 for another group’s upload, and 400 for an id that is not one', async () => {
    const ana = await registerUser(server.app, 'ana@asesoria.es');
    const luis = await registerUser(server.app, 'luis@otra-asesoria.es');
    const [file] = (await upload(ana, [{ name: 'ana.csv', data: 'NIF\n12345678Z\n' }])) as UploadedFile[];
    const theirs = await luis.get(`/api/storage/uploads/${file?.id}/columns`);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ code: 'UPLOAD_NOT_FOUND', message: 'No se ha encontrado este archivo' });
    expect((await ana.get(`/api/storage/uploads/${file?.id}/columns`)).statusCode).toBe(200);
    const bad = await ana.get('/api/storage/uploads/no-es-un-id/columns');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ issues: [{ path: 'id' }] });
  });
});

/** The stored_files row of an upload, through the test server's own database (SQLite or PostgreSQL). */
async function storedRow(server: TestServer, id: string): Promise<Record<string, unknown> | undefined> {
  const db = connectDatabase(server.database);
  try {
    const row = await db.selectFrom('stored_files').selectAll().where('id', '=', id).executeTakeFirst();
    return row && { ...row, row_count: row.row_count === null ? null : Number(row.row_count), entry_count: row.entry_count === null ? null : Number(row.entry_count) };
  } finally {
    await db.destroy();
  }
}

function send(jar: CookieJar, files: readonly { name: string; data: Buffer | string }[]) {
  const { payload, headers } = multipart(files);
  return jar.request({ method: 'POST', url: flowsPaths.uploads, payload, headers });
}

const fixture = (path: string) => readFile(new URL(`../../../resources/flows/${path}`, import.meta.url));

/** An ELF header, as the start of a Linux program. */
const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]), Buffer.alloc(8000, 0x90)]);

/** A FIE4 text of `entries` partes (EMP blocks), as SILTRA writes it. */
function fieText(entries: number): string {
  const block = ['EMP0111281234567899724000000B12345678', 'RZS02EJEMPLO SL', 'TRA281234567890172400000012345678Z'].join('\r\n');
  return ['ETIFIE40SLTR 0012345        2025011507300FIE00001FIEN 00000000000000000', ...Array.from({ length: entries }, () => block), 'ETF'].join('\r\n');
}

describe('uploads are judged by their content and inspected once (issue 18)', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(async () => server.close());

  it('refuses a zip bomb .xlsx of 1,000,001 rows with 413 naming the cap, while /api/health keeps answering', async () => {
    const jar = await registerUser(server.app, 'bomba@asesoria.es');
    const bomb = await zipBombXlsx(1_000_001);
    expect(bomb.length).toBeLessThan(500_000);
    let uploadDone = false;
    const uploading = send(jar, [{ name: 'plantilla.xlsx', data: bomb }]).finally(() => (uploadDone = true));
    // The inspection runs in a child process: the server's event loop keeps serving others meanwhile.
    const health = await server.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(uploadDone).toBe(false);
    const response = await uploading;
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({
      code: 'FILE_OVER_LIMIT',
      message: '«plantilla.xlsx» no se ha guardado. El archivo tiene más de 1.000.000 filas, el máximo que se lee. Divídelo en archivos más pequeños.',
    });
    expect(server.countRows('stored_files')).toBe(0);
    expect(await storedOnDisk(server)).toEqual([]);
  }, 60_000);

  it('refuses an ELF program or random bytes named .xlsx, and a PDF named .png, with 415, keeping nothing', async () => {
    const jar = await registerUser(server.app, 'disfraz@asesoria.es');
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
    const cases = [
      { name: 'nominas.xlsx', data: ELF, message: '«nominas.xlsx» no se admite. No es un libro de Excel (.xlsx): su contenido es de otro tipo. Tipos admitidos: .txt' },
      { name: 'aleatorio.xlsx', data: randomBytes(20_000), message: '«aleatorio.xlsx» no se admite. No es un libro de Excel (.xlsx)' },
      { name: 'foto.png', data: pdf, message: '«foto.png» no se admite. No es un archivo .png: su contenido es de otro tipo. Tipos admitidos:' },
      { name: 'lista.csv', data: ELF, message: '«lista.csv» no se admite. No es un CSV: contiene bytes nulos, como un archivo binario.' },
    ];
    for (const { name, data, message } of cases) {
      // A good file first: a refusal later in the request keeps nothing of it either.
      const response = await send(jar, [{ name: 'bien.csv', data: 'NIF;Nombre\n1;Ana\n' }, { name, data }]);
      expect(response.statusCode, name).toBe(415);
      expect(response.json(), name).toMatchObject({ code: 'FILE_TYPE_REFUSED', message: expect.stringContaining(message) });
    }
    expect(server.countRows('stored_files')).toBe(0);
    expect(await storedOnDisk(server)).toEqual([]);
  }, 60_000);

  it('refuses with 422 a workbook that is damaged inside, keeping nothing', async () => {
    const jar = await registerUser(server.app, 'roto@asesoria.es');
    const good = await fixture('validar-identificadores/fixtures/trabajadores.xlsx');
    const truncated = good.subarray(0, good.length - 200);
    const response = await send(jar, [{ name: 'roto.xlsx', data: truncated }]);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ code: 'FILE_UNREADABLE', message: expect.stringContaining('No se puede leer «roto.xlsx».') });
    expect(server.countRows('stored_files')).toBe(0);
    expect(await storedOnDisk(server)).toEqual([]);
  });

  it('stores real .xlsx, .ods, .xls and .csv workbooks with the same columns and rows SheetJS finds, and answers them', async () => {
    const jar = await registerUser(server.app, 'libros@asesoria.es');
    const rows = [['Plantilla de enero'], [], ['NIF', 'Nombre', 'IBAN'], ['12345678Z', 'Ana', ''], ['X1234567L', 'Luis', 'ES12']];
    const book = (bookType: XLSX.BookType) => {
      const workbookOf = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(workbookOf, XLSX.utils.aoa_to_sheet(rows), 'Trabajadores');
      return XLSX.write(workbookOf, { type: 'buffer', bookType }) as Buffer;
    };
    const files = [
      { name: 'trabajadores.xlsx', data: await fixture('validar-identificadores/fixtures/trabajadores.xlsx') },
      { name: 'altas.xlsx', data: await fixture('comprobar-altas-red/fixtures/altas.xlsx') },
      { name: 'trabajadores.csv', data: await fixture('validar-identificadores/fixtures/trabajadores-latin1.csv') },
      { name: 'lista.ods', data: book('ods') },
      { name: 'lista.xls', data: book('biff8') },
    ];
    const items = await upload(jar, files);
    for (const [index, file] of files.entries()) {
      const columns = await jar.get(`/api/storage/uploads/${items[index]?.id}/columns`);
      expect(columns.statusCode, file.name).toBe(200);
      expect(columns.json(), file.name).toEqual(workbookColumns(file.name, file.data));
      expect((await storedRow(server, items[index]?.id ?? ''))?.detected_type).toBe(file.name.slice(file.name.lastIndexOf('.') + 1));
    }
  }, 60_000);

  it('accepts a FIE as .fie, as .txt and without extension, judged by its header, with its entries counted', async () => {
    const jar = await registerUser(server.app, 'fie@asesoria.es');
    const data = await fixture('fie-incidencias-a3/fixtures/fie3-latin1.fie');
    const entries = decodeFie(data).entries.length;
    const items = await upload(jar, [
      { name: 'parte.fie', data },
      { name: 'parte.txt', data },
      { name: 'FIE20250115', data },
      { name: 'notas.txt', data: await fixture('fie-incidencias-a3/fixtures/no-es-un-fie.txt') },
    ]);
    expect(items.map((item) => item.name)).toEqual(['parte.fie', 'parte.txt', 'FIE20250115', 'notas.txt']);
    for (const item of items.slice(0, 3)) expect(await storedRow(server, item.id)).toMatchObject({ detected_type: 'fie', entry_count: entries, content_type: 'text/plain', row_count: null });
    expect(await storedRow(server, items[3]?.id ?? '')).toMatchObject({ detected_type: 'txt', entry_count: null });

    const notFie = await send(jar, [{ name: 'LEEME', data: 'Hola, esto no es un FIE.\n' }]);
    expect(notFie.statusCode).toBe(415);
    expect(notFie.json()).toMatchObject({ message: expect.stringContaining('«LEEME» no se admite. No es un FIE de SILTRA: no empieza por la cabecera ETI de un FIE.') });
  });

  it('drops control and bidirectional characters from names (NUL, RLO)', async () => {
    const jar = await registerUser(server.app, 'nombres@asesoria.es');
    const items = await upload(jar, [{ name: 'factura\u202Efdp.csv', data: 'a;b\n' }, { name: 'nul\u0000.txt', data: 'hola' }]);
    expect(items.map((item) => item.name)).toEqual(['facturafdp.csv', 'nul.txt']);
  });

  it('estimates a launch from the stored row count and FIE entries, never reading the file', async () => {
    const jar = await registerUser(server.app, 'estimacion@asesoria.es');
    // 50,150 rows at 100 rows a slan: 502 slans, over the trial's 500.
    const [book] = await upload(jar, [{ name: 'grande.csv', data: `NIF;Nombre\n${'12345678Z;Ana\n'.repeat(50_150)}` }]);
    const [fie] = await upload(jar, [{ name: 'partes.txt', data: Buffer.from(fieText(503), 'latin1') }]);
    expect((await storedRow(server, fie?.id ?? ''))?.entry_count).toBe(503);
    await rm(join(server.dir, 'storage'), { recursive: true, force: true });

    const rows = await jar.post(pathFor(flowsPaths.execution, { flowId: 'validar-identificadores' }), {
      inputs: { workbook: [{ uploadId: book?.id, name: 'grande.csv' }], columns: { nif: 'NIF' } },
      idempotencyKey: randomUUID(),
    });
    expect(rows.statusCode, rows.body).toBe(402);
    expect(rows.json()).toMatchObject({ details: { estimatedCost: 502 } });
    const entries = await jar.post(pathFor(flowsPaths.execution, { flowId: 'fie-incidencias-a3' }), { inputs: { fies: [{ uploadId: fie?.id, name: 'partes.txt' }] }, idempotencyKey: randomUUID() });
    expect(entries.statusCode, entries.body).toBe(402);
    expect(entries.json()).toMatchObject({ details: { estimatedCost: 503 } });
  }, 60_000);

  it('inspects an upload stored before inspections existed the first time it is asked for, and keeps the answer', async () => {
    const jar = await registerUser(server.app, 'antigua@asesoria.es');
    const [mine] = await upload(jar, [{ name: 'nueva.csv', data: 'x\n' }]);
    const db = connectDatabase(server.database);
    const id = randomUUID();
    try {
      const owner = await db.selectFrom('stored_files').select(['group_id', 'user_id']).where('id', '=', mine?.id ?? '').executeTakeFirstOrThrow();
      const storageKey = `${owner.group_id}/${id}`;
      await mkdir(join(server.dir, 'storage', owner.group_id), { recursive: true });
      await writeFile(join(server.dir, 'storage', storageKey), 'DNI;Nombre\n1;Ana\n2;Luis\n');
      await db
        .insertInto('stored_files')
        .values({ id, group_id: owner.group_id, user_id: owner.user_id, kind: 'upload', run_id: null, name: 'antigua.csv', size: 24, content_type: 'text/csv', storage_key: storageKey, created_at: new Date().toISOString() })
        .execute();
    } finally {
      await db.destroy();
    }
    expect((await jar.get(`/api/storage/uploads/${id}/columns`)).json()).toEqual({ sheet: 'antigua', columns: ['DNI', 'Nombre'], rowCount: 2 });
    expect(await storedRow(server, id)).toMatchObject({ detected_type: 'csv', row_count: 2 });
  });
});
