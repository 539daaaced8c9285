/** Issue 43 (6): GET /api/fie with `limit` answers one page of the list, with the counts the screen shows. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fieListPageSchema, fieMatchingIdsSchema, fiePaths, FIE_LIST_MAX_PAGE, type FieListPage, type FieMatchingIds } from '#shared/api/fie.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { NOW, fileA, fileB, list, upload } from './test-support.ts';

let server: TestServer;
let ana: CookieJar;
let eva: CookieJar;
beforeEach(async () => {
  server = await startTestServer({ now: () => NOW, scheduleRunnerIntervalMs: 0, fileRetention: { sweepIntervalMs: 0 } });
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
  eva = await registerUser(server.app, 'eva@otra.es', 'Eva Ruiz');
  // a.fie: María's baja, José's alta, Lucía's dop; b.fie (newer): María's baja again (linked) and Ángel's cit.
  await upload(ana, [
    { name: 'a.fie', data: fileA },
    { name: 'b.fie', data: fileB },
  ]);
});
afterEach(async () => server.close());

async function page(jar: CookieJar, query: string): Promise<FieListPage> {
  const response = await jar.get(`${fiePaths.fie}?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return fieListPageSchema.parse(response.json());
}

async function matchingIds(jar: CookieJar, query: string): Promise<FieMatchingIds> {
  const response = await jar.get(`${fiePaths.fie}?select=ids${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return fieMatchingIdsSchema.parse(response.json());
}

/** A page's entries as 'file: NIF', the file found from the first page's documents. */
const listed = (answer: FieListPage, names: Map<string, string>) => answer.entries.map((entry) => `${names.get(entry.fieId) ?? entry.fieId}: ${entry.nif}`);

describe('GET /api/fie?limit=', () => {
  it('pages the list in its order (documents newest first, entries in file order), the documents and counts on the first page', async () => {
    const first = await page(ana, 'limit=2');
    expect(first.documents?.map((document) => [document.fileName, document.matches, document.entryCount])).toEqual([
      ['b.fie', 2, 2],
      ['a.fie', 3, 3],
    ]);
    const names = new Map(first.documents?.map((document) => [document._id, document.fileName ?? '']));
    // María's baja is one parte carried by both files: listed under each, counted once.
    expect([first.total, first.documentCount, first.nextOffset]).toEqual([4, 2, 2]);
    expect(listed(first, names)).toEqual(['b.fie: 12345678Z', 'b.fie: 22222222J']);

    const second = await page(ana, 'limit=2&offset=2');
    expect(second.documents).toBeUndefined();
    expect([second.total, second.documentCount, second.nextOffset]).toEqual([4, 2, 4]);
    expect(listed(second, names)).toEqual(['a.fie: 12345678Z', 'a.fie: 87654321X']);

    const last = await page(ana, 'limit=2&offset=4');
    expect(listed(last, names)).toEqual(['a.fie: 11111111H']);
    expect(last.nextOffset).toBeNull();

    // Past the end: nothing, and no next page.
    const past = await page(ana, 'limit=2&offset=50');
    expect([past.entries, past.total, past.nextOffset]).toEqual([[], 4, null]);

    // The pages together are the whole list (what the desktop reads without `limit`), entry by entry.
    const whole = (await list(ana)).flatMap((document) => document.entries);
    expect([...first.entries, ...second.entries, ...last.entries]).toEqual(whole);
  });

  it('filters on the server: only matching documents head the list, each with its matching count', async () => {
    const maria = await page(ana, 'q=pe%C3%B1a&limit=10');
    expect(maria.documents?.map((document) => [document.fileName, document.matches])).toEqual([
      ['b.fie', 1],
      ['a.fie', 1],
    ]);
    expect([maria.total, maria.documentCount, maria.entries.map((entry) => entry.nif)]).toEqual([1, 2, ['12345678Z', '12345678Z']]);

    const dop = await page(ana, 'type=dop,alta&a3=excluded&limit=10');
    expect(dop.documents?.map((document) => [document.fileName, document.matches])).toEqual([['a.fie', 1]]);
    expect([dop.total, dop.documentCount, dop.nextOffset, dop.entries.map((entry) => entry.nif)]).toEqual([1, 1, null, ['11111111H']]);

    const range = await page(ana, 'from=2025-01-06&to=2025-01-12&limit=1');
    expect([range.total, range.documentCount, range.nextOffset, range.entries.map((entry) => entry.nif)]).toEqual([2, 2, 1, ['12345678Z']]);

    const none = await page(ana, 'q=nadie&limit=10');
    expect([none.documents, none.entries, none.total, none.documentCount, none.nextOffset]).toEqual([[], [], 0, 0, null]);
  });

  it("never counts nor lists another firm's entries, not even of the same file", async () => {
    expect(await page(eva, 'limit=10')).toEqual({ documents: [], entries: [], total: 0, documentCount: 0, nextOffset: null });
    await upload(eva, [{ name: 'eva.fie', data: fileA }]);
    const evas = await page(eva, 'limit=10');
    expect([evas.documents?.map((document) => document.fileName), evas.total, evas.documentCount]).toEqual([['eva.fie'], 3, 1]);
    const anas = await page(ana, 'limit=10');
    expect([anas.documents?.map((document) => document.fileName), anas.total, anas.documentCount, anas.entries.length]).toEqual([['b.fie', 'a.fie'], 4, 2, 5]);
    expect(anas.entries.every((entry) => !evas.entries.some((other) => other._id === entry._id))).toBe(true);
  });

  it('refuses a bad page size or offset with a 400 in Spanish', async () => {
    const cases: [string, string][] = [
      ['limit=0', 'El tamaño de página debe ser 1 o más'],
      ['limit=2.5', 'El tamaño de página debe ser un número entero'],
      [`limit=${FIE_LIST_MAX_PAGE + 1}`, `Pide ${FIE_LIST_MAX_PAGE} partes por página como máximo`],
      ['limit=10&offset=-1', 'El desplazamiento no puede ser negativo'],
    ];
    for (const [query, message] of cases) {
      const response = await ana.get(`${fiePaths.fie}?${query}`);
      expect([query, response.statusCode, response.json().issues?.[0]?.message]).toEqual([query, 400, message]);
    }
    expect((await ana.get(`${fiePaths.fie}?limit=muchos`)).statusCode).toBe(400);
  });

  it("select=ids: every parte that matches and can go to A3, once, whatever page it is on; never another firm's", async () => {
    const all = await page(ana, 'limit=10');
    const idOf = (nif: string) => all.entries.find((entry) => entry.nif === nif)?._id;
    const everything = await matchingIds(ana, '');
    // María (in both files) once, José and Ángel; Lucía's dop is never chosen.
    expect(everything.total).toBe(3);
    expect([...everything.ids].sort()).toEqual([idOf('12345678Z'), idOf('87654321X'), idOf('22222222J')].sort());
    // Newest first by the newest document that lists each: José, only in the older a.fie, comes last.
    expect(everything.ids[2]).toBe(idOf('87654321X'));
    expect(await matchingIds(ana, '&q=pe%C3%B1a')).toEqual({ ids: [idOf('12345678Z')], total: 1 });
    expect(await matchingIds(ana, '&type=dop')).toEqual({ ids: [], total: 0 });
    expect(await matchingIds(eva, '')).toEqual({ ids: [], total: 0 });
    expect((await ana.get(`${fiePaths.fie}?select=ids&type=otro`)).statusCode).toBe(400);
  });
});
