/** Issue 39 (2): FIE entries through the API go in pages (POST or PATCH the first, then POST /api/fie/:id/entries). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fieAppendResponseSchema, fieCreateResponseSchema, fiePaths, FIE_ENTRIES_BODY_LIMIT, FIE_ENTRIES_PER_PAGE } from '#shared/api/fie.ts';
import { pathFor } from '#shared/api/flows.ts';
import { jsonPages } from '#shared/api/pages.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { FIE_TABLES, NOW, list } from './test-support.ts';

let server: TestServer;
let ana: CookieJar;
beforeEach(async () => {
  server = await startTestServer({ now: () => NOW, scheduleRunnerIntervalMs: 0, fileRetention: { sweepIntervalMs: 0 } });
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
});
afterEach(async () => server.close());

/** A worker's entry as fields (NIF, name, a leave start). */
const entry = (index: number) => ({ 670: { value: String(10_000_000 + index).padStart(14, '0') }, 840: { value: `PERSONA ${index}` }, 1020: { value: '20250110' } });

describe('FIE entries in pages', () => {
  it('creates a document of 250 entries in pages of FIE_ENTRIES_PER_PAGE, in order, an entry repeated across pages linked once', async () => {
    const entries = [...Array.from({ length: 250 }, (_, index) => entry(index)), entry(3)];
    const [first, ...rest] = jsonPages(entries, FIE_ENTRIES_PER_PAGE, FIE_ENTRIES_BODY_LIMIT, (page) => ({ date: '2025-01-15', entries: page }));
    expect(rest.length).toBeGreaterThanOrEqual(2);
    const created = await ana.post(fiePaths.fie, { date: '2025-01-15', entries: first });
    expect(created.statusCode, created.body).toBe(201);
    const { _id } = fieCreateResponseSchema.parse(created.json());
    let entryCount = 0;
    for (const page of rest) {
      const appended = await ana.post(pathFor(fiePaths.entries, { id: _id }), { entries: page });
      expect(appended.statusCode, appended.body).toBe(200);
      entryCount = fieAppendResponseSchema.parse(appended.json()).entryCount;
    }
    expect(entryCount).toBe(250);
    const [document] = await list(ana);
    expect(document?.entryCount).toBe(250);
    expect(document?.entries.map((listed) => listed.fullname)).toEqual(Array.from({ length: 250 }, (_, index) => `PERSONA ${index}`));
  });

  it('refuses more than a page, another firm\'s document, and an empty page, writing nothing', async () => {
    const tooMany = await ana.post(fiePaths.fie, { date: '2025-01-15', entries: Array.from({ length: FIE_ENTRIES_PER_PAGE + 1 }, (_, index) => entry(index)) });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().issues[0].message).toMatch(/páginas de 100/);
    expect(server.countTables(FIE_TABLES)).toEqual({ fie_documents: 0, fie_entries: 0, fie_document_entries: 0 });

    const { _id } = fieCreateResponseSchema.parse((await ana.post(fiePaths.fie, { date: '2025-01-15', entries: [entry(1)] })).json());
    const before = server.countTables(FIE_TABLES);
    const eva = await registerUser(server.app, 'eva@otra.es');
    expect((await eva.post(pathFor(fiePaths.entries, { id: _id }), { entries: [entry(2)] })).statusCode).toBe(404);
    expect((await ana.post(pathFor(fiePaths.entries, { id: _id }), { entries: [] })).statusCode).toBe(400);
    expect((await ana.post(pathFor(fiePaths.entries, { id: 'no-existe' }), { entries: [entry(2)] })).statusCode).toBe(404);
    expect(server.countTables(FIE_TABLES)).toEqual(before);
  });
});
