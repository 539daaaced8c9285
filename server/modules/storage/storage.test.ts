import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UploadedFile } from '#shared/api/flows.ts';
import { registerUser, startTestServer, type TestServer } from '../../test/harness.ts';
import { multipart, upload, workbook } from '../runs/test-support.ts';
import { INLINE_WORKBOOK_BYTES } from './workbook.ts';

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

  it('reads a large workbook’s columns off the request thread, and the same answer again from its cache', async () => {
    const jar = await registerUser(server.app, 'lista-larga@asesoria.es');
    const rows = Array.from({ length: 120_000 }, (_, index) => `${String(index).padStart(8, '0')}T;Persona ${index}`);
    const csv = `DNI;Nombre\n${rows.join('\n')}\n`;
    expect(csv.length).toBeGreaterThan(INLINE_WORKBOOK_BYTES);
    const [file] = await upload(jar, [{ name: 'plantilla grande.csv', data: csv }]);
    const url = `/api/storage/uploads/${file?.id}/columns`;
    const expected = { sheet: 'plantilla grande', columns: ['DNI', 'Nombre'], rowCount: 120_000 };
    expect((await jar.get(url)).json()).toEqual(expected);
    expect((await jar.get(url)).json()).toEqual(expected);
  }, 60_000);

  it('refuses a type outside the allowed list with 415 and keeps nothing, not even the files before it', async () => {
    const jar = await registerUser(server.app, 'tipo@asesoria.es');
    const { payload, headers } = multipart([
      { name: 'bien.pdf', data: '%PDF-1.4' },
      { name: 'programa.exe', data: 'MZ' },
    ]);
    const response = await jar.request({ method: 'POST', url: '/api/storage/uploads', payload, headers });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({ code: 'FILE_TYPE_REFUSED', message: expect.stringContaining('No se admite el tipo de archivo de «programa.exe»') });
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
