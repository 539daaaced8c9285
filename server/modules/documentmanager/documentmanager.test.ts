import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DOCUMENT_MANAGER_NOT_ENABLED_MESSAGE, DOCUMENT_MANAGER_PAGE_SIZE, documentManagerPaths, type ManagedDocumentsPage } from '#shared/api/documentmanager.ts';
import { groupsPaths } from '#shared/api/groups.ts';
import { connectDatabase } from '../../db/connect.ts';
import type { Database } from '../../db/schema.ts';
import type { CookieJar} from '../../test/harness.ts';
import { registerUser, startTestServer, type TestServer } from '../../test/harness.ts';
import { insertFlow, insertRun, memberOf } from '../flowlogs/fixtures.ts';
import { joinFirm } from '../colleagues/test-support.ts';
import { likePattern } from './service.ts';
import { insertFirmDocuments, type FirmDocuments } from './test-support.ts';

const DAY_MS = 24 * 60 * 60_000;

async function enable(jar: CookieJar): Promise<void> {
  const response = await jar.put(groupsPaths.routeSettings, { hidden_routes: [], allowed_routes: ['/documanager'], defaultRoute: '/home' });
  expect(response.statusCode, response.body).toBe(200);
}

async function list(jar: CookieJar, query = ''): Promise<ManagedDocumentsPage> {
  const response = await jar.get(`${documentManagerPaths.documents}${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ManagedDocumentsPage>();
}

describe('document manager', () => {
  let server: TestServer;
  let db: Kysely<Database>;
  let owner: CookieJar;
  let docs: FirmDocuments;
  const at = new Date(Date.now() - 60 * 60_000);

  beforeEach(async () => {
    server = await startTestServer();
    db = connectDatabase(server.database);
    owner = await registerUser(server.app, 'dueno@asesoria.test');
    docs = await insertFirmDocuments(db, await memberOf(db, 'dueno@asesoria.test'), at);
  });
  afterEach(async () => {
    await db.destroy();
    await server.close();
  });

  it('is closed until the firm turns /documanager on, and to the signed-out', async () => {
    for (const path of [documentManagerPaths.documents, documentManagerPaths.companies]) {
      const refused = await owner.get(path);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ message: DOCUMENT_MANAGER_NOT_ENABLED_MESSAGE });
      expect((await server.app.inject({ method: 'GET', url: path })).statusCode).toBe(401);
    }
    await enable(owner);
    expect((await owner.get(documentManagerPaths.documents)).statusCode).toBe(200);
  });

  it("lists every kind of the firm's documents newest first, with company, retention and each module's download route", async () => {
    await enable(owner);
    const page = await list(owner);
    expect(page).toMatchObject({ total: 6, page: 1, pageSize: DOCUMENT_MANAGER_PAGE_SIZE });
    expect(page.items.map((item) => item.kind)).toEqual(['dehu', 'fie', 'alta-attachment', 'robot-output', 'submission', 'generated']);
    const byKind = Object.fromEntries(page.items.map((item) => [item.kind, item]));
    expect(byKind.generated).toMatchObject({
      key: `generated:${docs.generated}`, company: 'TALLERES ORTEGA SL', source: 'Autorización RED', size: 1200, expiresAt: null,
      downloadPath: `/api/documentcreator/documents/${docs.generated}/pdf`,
    });
    expect(byKind.submission).toMatchObject({ source: 'Solicitud de datos', company: 'PANADERÍA SOL SL', downloadPath: `/api/documentcreator/documents/${docs.submission}/pdf` });
    const output = byKind['robot-output'];
    expect(output).toMatchObject({ name: 'resultado.xlsx', source: 'Validar identificadores', company: null, downloadPath: `/api/flowlog/${docs.runId}/outputs/resultado.xlsx` });
    expect(Date.parse(output?.expiresAt ?? '') - Date.parse(output?.createdAt ?? '')).toBe(30 * DAY_MS);
    expect(byKind['alta-attachment']).toMatchObject({ company: 'TALLERES ORTEGA SL', source: 'Alta de Juan Pérez', size: 300, downloadPath: `/api/form-to-flow-submission/${docs.altaSubmission}/files/${docs.altaFile}` });
    expect(byKind.fie).toMatchObject({ name: 'FIE_marzo.txt', source: 'FIE de SILTRA', downloadPath: null });
    expect(byKind.dehu).toMatchObject({ company: 'TALLERES ORTEGA SL', source: 'Requerimiento IVA', downloadPath: `/api/notifications/${docs.dehuNotification}/documents/${docs.dehu}` });
  });

  it("never shows another firm's documents, and every member of the firm sees the firm's", async () => {
    const other = await registerUser(server.app, 'otra@asesoria.test');
    await insertFirmDocuments(db, await memberOf(db, 'otra@asesoria.test'), at, ' otra');
    await enable(owner);
    await enable(other);
    const mine = await list(owner);
    expect(mine.total).toBe(6);
    expect(mine.items.every((item) => !item.name.includes('otra'))).toBe(true);
    expect((await owner.get(`${documentManagerPaths.companies}`)).json()).toEqual({ items: [{ company: 'PANADERÍA SOL SL', documents: 1 }, { company: 'TALLERES ORTEGA SL', documents: 3 }] });
    const member = await joinFirm(server, owner, 'luis@asesoria.test');
    expect((await list(member)).total).toBe(6);
  });

  it('filters by kind, company and text (LIKE wildcards taken literally), and pages', async () => {
    await enable(owner);
    expect((await list(owner, '?kind=dehu')).items.map((item) => item.key)).toEqual([`dehu:${docs.dehu}`]);
    expect((await list(owner, `?company=${encodeURIComponent('TALLERES ORTEGA SL')}`)).items.map((item) => item.kind)).toEqual(['dehu', 'alta-attachment', 'generated']);
    expect((await list(owner, '?q=talleres')).total).toBe(3);
    expect((await list(owner, `?q=${encodeURIComponent('tall\u0000eres')}`)).total).toBe(3);
    expect((await list(owner, '?q=REQUERIMIENTO&kind=dehu')).total).toBe(1);
    expect((await list(owner, `?q=${encodeURIComponent('50%_x')}`)).items.map((item) => item.kind)).toEqual(['submission']);
    expect((await list(owner, `?q=${encodeURIComponent('%')}`)).total).toBe(1);
    expect((await list(owner, `?q=${encodeURIComponent('_')}`)).total).toBe(2);
    expect((await list(owner, '?q=nada-de-esto')).total).toBe(0);
    const second = await list(owner, '?page=2');
    expect(second).toMatchObject({ items: [], total: 6, page: 2 });
  });

  it('leaves out robot outputs past their retention', async () => {
    await enable(owner);
    const member = await memberOf(db, 'dueno@asesoria.test');
    await insertFlow(db, { id: 'antiguo', name: 'Antiguo' });
    await insertRun(db, { ...member, flowId: 'antiguo', createdAt: new Date(Date.now() - 31 * DAY_MS).toISOString(), outputs: ['viejo.xlsx'] });
    const outputs = await list(owner, '?kind=robot-output');
    expect(outputs.items.map((item) => item.name)).toEqual(['resultado.xlsx']);
  });

  it('refuses bad filters with a 400', async () => {
    await enable(owner);
    for (const query of ['?kind=contrato', '?page=0', '?page=abc', `?q=${'x'.repeat(201)}`]) {
      const response = await owner.get(`${documentManagerPaths.documents}${query}`);
      expect(response.statusCode, query).toBe(400);
    }
  });
});

describe('likePattern', () => {
  it('escapes the wildcards and the escape character', () => {
    expect(likePattern('50%_a\\b')).toBe('%50\\%\\_a\\\\b%');
    expect(likePattern('ÁB')).toBe('%áb%');
  });
});
