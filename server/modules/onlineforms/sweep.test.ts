import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onlineFormsPaths } from '#shared/api/onlineforms.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { GOOD_VALUES, publishedForm, settledSubmission, SIGNATURE, storedFiles, withDb } from './test-support.ts';

/**
 * The bad-input sweep (scripts/sweep.ts) on this module's routes with REAL ids, so the junk reaches the
 * body and query checks: every answer a clear 4xx (never 500), and a refused request changes nothing.
 */
const JUNK = '\u0000\u202e💥\uffff<script>alert(1)</script>\'";--\\';
const nested = (depth: number, open: string, close: string) => `${open.repeat(depth)}1${close.repeat(depth)}`;
const json = (value: unknown) => ({ headers: { 'content-type': 'application/json' }, payload: JSON.stringify(value) });
const FIELDS = ['templateId', 'title', 'description', 'fields', 'requireSignature', 'emails', 'message', 'values', 'signerName', 'signature'];

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
  { name: 'over 1 MB', ...json({ message: 'a'.repeat(1_100_000) }) },
  { name: 'many keys', ...json({ values: Object.fromEntries(Array.from({ length: 20_000 }, (_, index) => [`k${index}`, 'x'])) }) },
  ...[123, true, [], {}, null, JUNK, '', { $gt: '' }].map((value) => ({ name: `every field = ${JSON.stringify(value)}`, ...json(Object.fromEntries(FIELDS.map((field) => [field, value]))) })),
  ...FIELDS.flatMap((field) => [
    { name: `${field} huge`, ...json({ [field]: 'a'.repeat(250_000) }) },
    { name: `${field} junk`, ...json({ [field]: JUNK }) },
  ]),
  { name: 'values junk', ...json({ values: { Nombre: { a: 1 }, NIF: ['x'], Acepta: 'quizá', [JUNK]: JUNK } }) },
  { name: 'values too long', ...json({ values: { ...GOOD_VALUES, Comentarios: 'x'.repeat(10_001) } }) },
  { name: 'fields junk', ...json({ templateId: 'x', title: 'T', description: '', requireSignature: true, fields: [{ key: '[[x]]', label: '', type: 'bomba', required: 'sí' }] }) },
  ...['?a=1&a=2&a[b]=3', '?__proto__[admin]=1', '?q=%ZZ%', `?q=${'x'.repeat(8_000)}`, '?page=-1', '?page=1e9', '?from=2026-13-45', '?to=ayer', '?q=a&q=b'].map((query) => ({ name: `query ${query.slice(0, 30)}`, query })),
];

const REJECTED = new Set([400, 404, 409, 410, 413, 415, 429]);

describe('online forms: bad input on every route with real ids', () => {
  let server: TestServer;
  let owner: CookieJar;
  let ids: { form: string; publicId: string; submission: string };

  beforeAll(async () => {
    server = await startTestServer({ onlineForms: { submissionsPerIpPerMinute: 100_000 } });
    owner = await registerUser(server.app, 'ana@asesoria.es');
    const { form, publicId } = await publishedForm(owner);
    const sent = await server.app.inject({ method: 'POST', url: `/api/online-forms/${publicId}/submissions`, payload: { values: GOOD_VALUES, signature: SIGNATURE } });
    const submission = (sent.json() as { id: string }).id;
    await settledSubmission(owner, submission);
    ids = { form: form.id, publicId, submission };
    // A server, a template, a form and a generated document: more than the default hook time on a loaded machine.
  }, 60_000);
  afterAll(() => server.close());

  const snapshot = async () => ({
    rows: await withDb(server, async (db) => ({
      forms: await db.selectFrom('doc_forms').selectAll().orderBy('id').execute(),
      submissions: await db.selectFrom('doc_submissions').selectAll().orderBy('id').execute(),
      documents: await db.selectFrom('doc_documents').select(['id', 'status']).orderBy('id').execute(),
    })),
    files: (await storedFiles(server)).sort(),
  });

  it('answers every case with a 4xx or success, never a 500, and a refusal writes nothing', async () => {
    const routes: Array<{ method: 'GET' | 'POST' | 'PUT'; url: string }> = [
      { method: 'POST', url: onlineFormsPaths.forms },
      { method: 'PUT', url: onlineFormsPaths.form },
      { method: 'POST', url: onlineFormsPaths.sendLink },
      { method: 'GET', url: onlineFormsPaths.submissions },
      { method: 'GET', url: onlineFormsPaths.submissionsExport },
      { method: 'GET', url: onlineFormsPaths.publicForm },
      { method: 'POST', url: onlineFormsPaths.publicSubmissions },
    ];
    const fill = (url: string) => url.replace(':publicId', ids.publicId).replace(':id', url.includes('/submissions/') ? ids.submission : ids.form);
    const before = await snapshot();
    const failures: string[] = [];
    let requests = 0;
    for (const route of routes) {
      for (const item of CASES) {
        if (route.method === 'GET' && item.payload !== undefined) continue;
        const response = await owner.request({ method: route.method, url: `${fill(route.url)}${item.query ?? ''}`, ...(item.headers && { headers: item.headers }), ...(item.payload !== undefined && { payload: item.payload }) });
        requests += 1;
        if (response.statusCode >= 500) failures.push(`${route.method} ${route.url} ${item.name}: ${response.statusCode}`);
        else if (response.statusCode >= 400 && !REJECTED.has(response.statusCode)) failures.push(`${route.method} ${route.url} ${item.name}: unexpected ${response.statusCode}`);
        else if (response.statusCode >= 400 && (response.json() as { message?: unknown }).message === undefined) failures.push(`${route.method} ${route.url} ${item.name}: no message`);
      }
    }
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(100);
    expect(await snapshot()).toEqual(before);
  });
});
