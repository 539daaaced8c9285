import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentsPaths, type Category } from '#shared/api/documents.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { createTemplate, DOCUMENT_TABLES, generateAndWait, path, storedDocumentFiles, templateBody } from './test-support.ts';

/**
 * The bad-input sweep (scripts/sweep.ts) on the document creator's routes with REAL ids, so the junk
 * reaches the body and query checks: every answer a clear 4xx (never 500), and a refusal writes nothing.
 */
const JUNK = '\u0000\u202e💥\uffff<script>alert(1)</script>\'";--\\';
const nested = (depth: number, open: string, close: string) => `${open.repeat(depth)}1${close.repeat(depth)}`;
const json = (value: unknown) => ({ headers: { 'content-type': 'application/json' }, payload: JSON.stringify(value) });
const FIELDS = ['name', 'description', 'categoryId', 'content', 'templateId', 'company', 'values'];

interface Case {
  name: string;
  headers?: Record<string, string>;
  payload?: string | Buffer;
  query?: string;
}

const CASES: Case[] = [
  { name: 'no body' },
  ...['', 'null', '[]', '"texto"', '42', '{}', '{', '{"a":}', '{"__proto__":{"admin":true}}'].map((payload) => ({ name: `JSON ${payload}`, headers: { 'content-type': 'application/json' }, payload })),
  { name: 'text/plain', headers: { 'content-type': 'text/plain' }, payload: 'a=1' },
  { name: 'multipart junk', headers: { 'content-type': 'multipart/form-data; boundary=x' }, payload: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--' },
  { name: 'invalid UTF-8', headers: { 'content-type': 'application/json' }, payload: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]) },
  { name: 'deep arrays', headers: { 'content-type': 'application/json' }, payload: nested(3_000, '[', ']') },
  { name: 'deep objects', headers: { 'content-type': 'application/json' }, payload: nested(2_000, '{"a":', '}') },
  { name: 'over 4 MB', ...json({ name: 'a'.repeat(4_300_000) }) },
  { name: 'many keys', ...json({ values: Object.fromEntries(Array.from({ length: 20_000 }, (_, index) => [`k${index}`, 'x'])) }) },
  ...[123, true, [], {}, null, JUNK, '', { $gt: '' }].map((value) => ({ name: `every field = ${JSON.stringify(value)}`, ...json(Object.fromEntries(FIELDS.map((field) => [field, value]))) })),
  ...FIELDS.flatMap((field) => [
    { name: `${field} huge`, ...json({ [field]: 'a'.repeat(250_000) }) },
    { name: `${field} junk`, ...json({ [field]: JUNK }) },
  ]),
  { name: 'a NUL in a name', ...json({ name: 'Contrato\u0000', description: '', categoryId: null, content: { blocks: [], styles: { font: 'sans', fontSize: 11, accentColor: '#1f4e79' } } }) },
  { name: 'a NUL in a block', ...json(templateBody([{ type: 'paragraph', text: 'a\u0000b' }])) },
  { name: 'blocks junk', ...json(templateBody([{ type: 'bomba' } as never, { type: 'table', header: true, rows: [['a'], 'b'] } as never])) },
  { name: 'values junk', ...json({ templateId: 'x', name: 'x', values: { Nombre: { a: 1 }, NIF: ['x'], [JUNK]: JUNK } }) },
  { name: 'values with a NUL', ...json({ templateId: 'x', name: 'x', values: { Nombre: 'a\u0000' } }) },
  ...['?a=1&a=2&a[b]=3', '?__proto__[admin]=1', '?q=%ZZ%', `?q=${'x'.repeat(8_000)}`, '?q=%00', '?templateId=%00', '?categoryId=%00', '?page=-1', '?page=1e9', '?page=abc', '?scope=todo', '?q=a&q=b'].map((query) => ({
    name: `query ${query.slice(0, 30)}`,
    query,
  })),
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
        if (response.statusCode >= 500) failures.push(`${route.method} ${route.url} ${item.name}: ${response.statusCode} ${response.body.slice(0, 200)}`);
        else if (response.statusCode >= 400 && !REJECTED.has(response.statusCode)) failures.push(`${route.method} ${route.url} ${item.name}: unexpected ${response.statusCode}`);
        else if (response.statusCode >= 400 && (response.json() as { message?: unknown }).message === undefined) failures.push(`${route.method} ${route.url} ${item.name}: no message`);
        else if (response.statusCode < 400 && route.method !== 'GET') failures.push(`${route.method} ${route.url} ${item.name}: accepted (${response.statusCode})`);
      }
    }
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(200);
    expect({ rows: server.countTables(DOCUMENT_TABLES), files: await storedDocumentFiles(server) }).toEqual(before);
  });
});
