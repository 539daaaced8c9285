import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authPaths } from '#shared/api/auth-paths.ts';
import { documentManagerPaths } from '#shared/api/documentmanager.ts';
import { groupsPaths } from '#shared/api/groups.ts';
import { sharePaths } from '#shared/api/share.ts';
import { connectDatabase } from '../../db/connect.ts';
import type { Database } from '../../db/schema.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { JUNK, jsonCase, junkAnswerProblem, junkBodies, junkQueries, type JunkCase } from '../../test/junk-requests.ts';
import { startGoogleTestProvider, type GoogleTestProvider } from '../auth/google-test-provider.ts';
import { joinFirm } from '../colleagues/test-support.ts';
import { memberOf } from '../flowlogs/fixtures.ts';

/**
 * The bad-input sweep (scripts/sweep.ts) on sharing, the document manager, the screen settings and
 * Google sign-in with REAL ids, so the junk reaches the body and query checks: every answer a clear
 * 4xx (never a 500) or what the route does with its path alone, and a refusal changes nothing.
 */
const FIELDS = ['grants', 'userId', 'access', 'hidden_routes', 'allowed_routes', 'defaultRoute'];

const CASES: JunkCase[] = [
  ...junkBodies(FIELDS, { field: 'grants', bytes: 1_100_000 }),
  { name: 'grants junk', ...jsonCase({ grants: [{ userId: JUNK, access: 'view' }, { userId: 'x', access: JUNK }] }) },
  { name: 'grants too many', ...jsonCase({ grants: Array.from({ length: 201 }, () => ({ userId: randomUUID(), access: 'view' })) }) },
  { name: 'edit junk', ...jsonCase({ userId: JUNK, access: 'edit' }) },
  { name: 'settings junk', ...jsonCase({ hidden_routes: [JUNK], allowed_routes: ['/documanager', '/documanager', '/frumecar'], defaultRoute: '//malo.test' }) },
  ...junkQueries([
    `?q=${encodeURIComponent(JUNK)}`, `?company=${encodeURIComponent(JUNK)}`, '?kind=contrato', `?redirect=${encodeURIComponent(JUNK)}`, `?redirect=${'/x'.repeat(2_000)}`,
    `?state=${encodeURIComponent(JUNK)}&code=1`, '?error=access_denied&state=x',
  ]),
];

const REJECTED = new Set([400, 403, 404, 413, 415, 429]);

describe('sharing, document manager, screen settings and Google sign-in: bad input with real ids', () => {
  let google: GoogleTestProvider;
  let server: TestServer;
  let db: Kysely<Database>;
  let owner: CookieJar;
  let template: string;

  beforeAll(async () => {
    google = await startGoogleTestProvider();
    server = await startTestServer({ google: google.config });
    db = connectDatabase(server.database);
    owner = await registerUser(server.app, 'ana@asesoria.test');
    await joinFirm(server, owner, 'luis@asesoria.test');
    const member = await memberOf(db, 'ana@asesoria.test');
    template = randomUUID();
    const stamp = new Date().toISOString();
    await db.insertInto('doc_templates').values({ id: template, group_id: member.groupId, owner_user_id: member.userId, category_id: null, name: 'Plantilla', description: '', content: '{}', placeholders: '[]', takes_signature: 0, starter_key: null, created_at: stamp, updated_at: stamp }).execute();
    await owner.put(groupsPaths.routeSettings, { hidden_routes: [], allowed_routes: ['/documanager'], defaultRoute: '/home' });
  }, 60_000);
  afterAll(async () => {
    await db.destroy();
    await server.close();
    await google.close();
  });

  const snapshot = async () => ({
    shares: await db.selectFrom('shares').selectAll().orderBy('id').execute(),
    groups: await db.selectFrom('groups').select(['id', 'config']).orderBy('id').execute(),
    users: await db.selectFrom('users').select(['id', 'google_sub', 'disabled_at']).orderBy('id').execute(),
    templates: await db.selectFrom('doc_templates').select(['id', 'name']).orderBy('id').execute(),
    sessions: (await db.selectFrom('sessions').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n,
  });

  it('answers every case with a 4xx or the route’s own answer, never a 500, and a refusal writes nothing', async () => {
    const routes: Array<{ method: 'GET' | 'PUT' | 'PATCH'; url: string }> = [
      { method: 'GET', url: sharePaths.own },
      { method: 'GET', url: sharePaths.me },
      { method: 'GET', url: sharePaths.object },
      { method: 'PUT', url: sharePaths.object },
      { method: 'PATCH', url: sharePaths.edit },
      { method: 'GET', url: documentManagerPaths.documents },
      { method: 'GET', url: documentManagerPaths.companies },
      { method: 'GET', url: groupsPaths.routeSettings },
      { method: 'PUT', url: groupsPaths.routeSettings },
      { method: 'GET', url: authPaths.googleStatus },
      { method: 'GET', url: authPaths.googleStart },
      { method: 'GET', url: authPaths.googleCallback },
    ];
    const fill = (url: string) => url.replace(':kind', 'template').replace(':id', template);
    const before = await snapshot();
    const failures: string[] = [];
    let requests = 0;
    for (const route of routes) {
      for (const item of CASES) {
        if (route.method === 'GET' && item.payload !== undefined) continue;
        const signIns = server.countRows('google_sign_ins');
        const response = await owner.request({ method: route.method, url: `${fill(route.url)}${item.query ?? ''}`, ...(item.headers && { headers: item.headers }), ...(item.payload !== undefined && { payload: item.payload }) });
        requests += 1;
        const name = `${route.method} ${route.url} ${item.name}`;
        const problem = junkAnswerProblem(name, response, REJECTED);
        if (problem !== null) failures.push(problem);
        else if (response.statusCode >= 400 && server.countRows('google_sign_ins') !== signIns) failures.push(`${name}: wrote a sign-in`);
        // Google's callback without a sign-in of ours is always refused, whatever it carries.
        if (route.url === authPaths.googleCallback && !String(response.headers.location ?? '').startsWith('/auth?google=')) failures.push(`${name}: not refused`);
      }
    }
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(150);
    expect(await snapshot()).toEqual(before);
  }, 120_000);
});
