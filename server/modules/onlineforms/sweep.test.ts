import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onlineFormsPaths } from '#shared/api/onlineforms.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { JUNK, jsonCase, junkAnswerProblem, junkBodies, junkQueries, type JunkCase } from '../../test/junk-requests.ts';
import { GOOD_VALUES, publishedForm, settledSubmission, SIGNATURE, storedFiles, withDb } from './test-support.ts';

/**
 * The bad-input sweep (scripts/sweep.ts) on this module's routes with REAL ids, so the junk reaches the
 * body and query checks: every answer a clear 4xx (never 500), and a refused request changes nothing.
 */
const FIELDS = ['templateId', 'title', 'description', 'fields', 'requireSignature', 'emails', 'message', 'values', 'signerName', 'signature'];

const CASES: JunkCase[] = [
  ...junkBodies(FIELDS, { field: 'message', bytes: 1_100_000 }),
  { name: 'values junk', ...jsonCase({ values: { Nombre: { a: 1 }, NIF: ['x'], Acepta: 'quizá', [JUNK]: JUNK } }) },
  { name: 'values too long', ...jsonCase({ values: { ...GOOD_VALUES, Comentarios: 'x'.repeat(10_001) } }) },
  { name: 'fields junk', ...jsonCase({ templateId: 'x', title: 'T', description: '', requireSignature: true, fields: [{ key: '[[x]]', label: '', type: 'bomba', required: 'sí' }] }) },
  ...junkQueries(['?from=2026-13-45', '?to=ayer']),
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
        const problem = junkAnswerProblem(`${route.method} ${route.url} ${item.name}`, response, REJECTED);
        if (problem !== null) failures.push(problem);
      }
    }
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(100);
    expect(await snapshot()).toEqual(before);
  });
});
