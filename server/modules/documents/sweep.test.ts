import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentsPaths, type Category } from '#shared/api/documents.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { JUNK, jsonCase, junkAnswerProblem, junkBodies, junkQueries, type JunkCase } from '../../test/junk-requests.ts';
import { createTemplate, DOCUMENT_TABLES, generateAndWait, path, storedDocumentFiles, templateBody } from './test-support.ts';

/**
 * The bad-input sweep (scripts/sweep.ts) on the document creator's routes with REAL ids, so the junk
 * reaches the body and query checks: every answer a clear 4xx (never 500), and a refusal writes nothing.
 */
const FIELDS = ['name', 'description', 'categoryId', 'content', 'templateId', 'company', 'values'];

const CASES: JunkCase[] = [
  ...junkBodies(FIELDS, { field: 'name', bytes: 700_000 }),
  { name: 'a NUL in a name', ...jsonCase({ name: 'Contrato\u0000', description: '', categoryId: null, content: { blocks: [], styles: { font: 'sans', fontSize: 11, accentColor: '#1f4e79' } } }) },
  { name: 'a NUL in a block', ...jsonCase(templateBody([{ type: 'paragraph', text: 'a\u0000b' }])) },
  { name: 'blocks junk', ...jsonCase(templateBody([{ type: 'bomba' } as never, { type: 'table', header: true, rows: [['a'], 'b'] } as never])) },
  { name: 'values junk', ...jsonCase({ templateId: 'x', name: 'x', values: { Nombre: { a: 1 }, NIF: ['x'], [JUNK]: JUNK } }) },
  { name: 'values with a NUL', ...jsonCase({ templateId: 'x', name: 'x', values: { Nombre: 'a\u0000' } }) },
  ...junkQueries(['?q=%00', '?templateId=%00', '?categoryId=%00', '?page=abc', '?scope=todo']),
];

const FOR_OTHER_ROUTES = new Set(['a NUL in a block', 'blocks junk', 'values junk', 'values with a NUL']);

const REJECTED = new Set([400, 403, 404, 409, 413, 415]);

describe('document creator: bad input on every route with real ids', { timeout: 120_000 }, () => {
  let server: TestServer;
  let owner: CookieJar;
  let ids: { category: string; template: string; document: string };

  beforeAll(async () => {
    server = await startTestServer();
    owner = await registerUser(server.app, 'ana@asesoria.es');
    const category = (await owner.post(documentsPaths.categories, { name: 'Laboral' })).json<Category>();
    const template = await createTemplate(owner, templateBody([{ type: 'paragraph', text: 'Hola [[Nombre]]' }], { categoryId: category.id }));
    const document = await generateAndWait(owner, { templateId: template.id, name: 'Hola', values: { Nombre: 'Ana' } });
    ids = { category: category.id, template: template.id, document: document.id };
    // A server, a template and a generated document: more than the default hook time on a loaded machine.
  }, 60_000);
  afterAll(() => server.close());

  it('answers every case with a 4xx or success, never a 500, and a refusal writes nothing', async () => {
    const routes: Array<{ method: 'GET' | 'POST' | 'PUT' | 'PATCH'; url: string }> = [
      { method: 'POST', url: documentsPaths.categories },
      { method: 'PATCH', url: path(documentsPaths.category, { id: ids.category }) },
      { method: 'GET', url: documentsPaths.templates },
      { method: 'POST', url: documentsPaths.templates },
      { method: 'PUT', url: path(documentsPaths.template, { id: ids.template }) },
      { method: 'POST', url: path(documentsPaths.useStarter, { key: `${encodeURIComponent(JUNK)}` }) },
      { method: 'GET', url: documentsPaths.documents },
      { method: 'POST', url: documentsPaths.documents },
      { method: 'GET', url: path(documentsPaths.documentFile, { id: ids.document, format: 'exe' }) },
      { method: 'GET', url: path(documentsPaths.documentFile, { id: '%00', format: 'pdf' }) },
    ];
    const before = { rows: server.countTables(DOCUMENT_TABLES), files: await storedDocumentFiles(server) };
    const failures: string[] = [];
    let requests = 0;
    for (const route of routes) {
      for (const item of CASES) {
        if (route.method === 'GET' && item.payload !== undefined) continue;
        // A template's or a document's body names a category well: those cases are for their own routes.
        if (route.url.includes('/categories') && FOR_OTHER_ROUTES.has(item.name)) continue;
        const response = await owner.request({ method: route.method, url: `${route.url}${item.query ?? ''}`, ...(item.headers && { headers: item.headers }), ...(item.payload !== undefined && { payload: item.payload }) });
        requests += 1;
        const problem = junkAnswerProblem(`${route.method} ${route.url} ${item.name}`, response, REJECTED);
        if (problem !== null) failures.push(problem);
        else if (response.statusCode < 400 && route.method !== 'GET') failures.push(`${route.method} ${route.url} ${item.name}: accepted (${response.statusCode})`);
      }
    }
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(200);
    expect({ rows: server.countTables(DOCUMENT_TABLES), files: await storedDocumentFiles(server) }).toEqual(before);
  });
});
