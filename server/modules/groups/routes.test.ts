import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authPaths } from '#shared/api/auth-paths.ts';
import { OWNER_ONLY_SETTINGS_MESSAGE, groupsPaths, type RouteSettings } from '#shared/api/groups.ts';
import { connectDatabase } from '../../db/connect.ts';
import type { Database } from '../../db/schema.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { invite, joinFirm } from '../colleagues/test-support.ts';

const SETTINGS: RouteSettings = { hidden_routes: ['/fie', '/payments'], allowed_routes: ['/documanager'], defaultRoute: '/documentcreator' };

describe("the firm's screen settings", () => {
  let server: TestServer;
  let db: Kysely<Database>;
  let owner: CookieJar;
  let groupId: string;

  const storedConfig = async () => JSON.parse((await db.selectFrom('groups').select('config').where('id', '=', groupId).executeTakeFirstOrThrow()).config) as Record<string, unknown>;

  beforeEach(async () => {
    server = await startTestServer();
    db = connectDatabase(server.database);
    owner = await registerUser(server.app, 'dueno@asesoria.test');
    groupId = (await db.selectFrom('users').select('group_id').where('email', '=', 'dueno@asesoria.test').executeTakeFirstOrThrow()).group_id;
  });
  afterEach(async () => {
    await db.destroy();
    await server.close();
  });

  it('starts with nothing hidden, nothing opted in, and the home screen', async () => {
    const response = await owner.get(groupsPaths.routeSettings);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ hidden_routes: [], allowed_routes: [], defaultRoute: '/home' });
    expect((await server.app.inject({ method: 'GET', url: groupsPaths.routeSettings })).statusCode).toBe(401);
  });

  it("lets the owner change them, keeping the config's other keys, and the session's user carries them", async () => {
    await db.updateTable('groups').set({ config: JSON.stringify({ allowed_routes: [], hidden_routes: [], company_name: 'Asesoría Norte', currency: 'EUR' }) }).where('id', '=', groupId).execute();
    const response = await owner.put(groupsPaths.routeSettings, SETTINGS);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual(SETTINGS);
    expect(await storedConfig()).toEqual({ ...SETTINGS, company_name: 'Asesoría Norte', currency: 'EUR' });
    const session = await owner.get(authPaths.session);
    expect(session.json()).toMatchObject({ userData: { group: { config: { ...SETTINGS, company_name: 'Asesoría Norte' } } } });
  });

  it('shows every member the firm’s settings, but only the owner changes them', async () => {
    await owner.put(groupsPaths.routeSettings, SETTINGS);
    const member = await joinFirm(server, owner, 'luis@asesoria.test');
    expect((await member.get(groupsPaths.routeSettings)).json()).toEqual(SETTINGS);
    const refused = await member.put(groupsPaths.routeSettings, { hidden_routes: [], allowed_routes: [], defaultRoute: '/home' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ message: OWNER_ONLY_SETTINGS_MESSAGE });
    expect(await storedConfig()).toMatchObject(SETTINGS);
  });

  it('refuses screens it does not know with a 400 and writes nothing', async () => {
    const before = await storedConfig();
    for (const body of [
      { ...SETTINGS, hidden_routes: ['/home'] },
      { ...SETTINGS, allowed_routes: ['/fie'] },
      { ...SETTINGS, defaultRoute: 'https://malo.test' },
      { hidden_routes: [] },
      ['nada'],
    ]) {
      const response = await owner.put(groupsPaths.routeSettings, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await storedConfig()).toEqual(before);
  });

  it('shows only the screens it knows from what the database holds', async () => {
    await db.updateTable('groups').set({ config: JSON.stringify({ allowed_routes: ['/documanager', '/viejo'], hidden_routes: ['/fie', '/no-existe'], defaultRoute: '/otra' }) }).where('id', '=', groupId).execute();
    expect((await owner.get(groupsPaths.routeSettings)).json()).toEqual({ hidden_routes: ['/fie'], allowed_routes: ['/documanager'], defaultRoute: '/home' });
  });
});

describe("the firm's name", () => {
  let server: TestServer;
  let db: Kysely<Database>;
  let owner: CookieJar;

  const storedName = async () => (await db.selectFrom('groups').select('groups.name').innerJoin('users', 'users.group_id', 'groups.id').where('users.email', '=', 'lucia@asesoria.test').executeTakeFirstOrThrow()).name;

  beforeEach(async () => {
    server = await startTestServer();
    db = connectDatabase(server.database);
    owner = await registerUser(server.app, 'lucia@asesoria.test', 'Lucía Martín');
  });
  afterEach(async () => {
    await db.destroy();
    await server.close();
  });

  it("starts as the owner's name; the owner renames it and the invitation and the session say the new one", async () => {
    expect(await storedName()).toBe('Lucía Martín');
    const renamed = await owner.put(groupsPaths.firmName, { name: '  Asesoría Martín y Asociados ' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toEqual({ name: 'Asesoría Martín y Asociados' });
    expect((await owner.get(authPaths.session)).json()).toMatchObject({ userData: { group: { name: 'Asesoría Martín y Asociados' } } });

    // The invitation's mail and page read the firm's name from the same row (colleagues/service.ts).
    const token = await invite(server, owner, 'luis@asesoria.test');
    const preview = await server.app.inject({ method: 'GET', url: `/api/invitations/${token}` });
    expect(preview.json()).toMatchObject({ firmName: 'Asesoría Martín y Asociados', invitedBy: 'Lucía Martín' });
  });

  it('lets only the owner rename it, and refuses an empty or too long name with a 400, writing nothing', async () => {
    const member = await joinFirm(server, owner, 'luis@asesoria.test');
    const refused = await member.put(groupsPaths.firmName, { name: 'Otra' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ message: OWNER_ONLY_SETTINGS_MESSAGE });
    for (const body of [{ name: '   ' }, { name: 'A' }, { name: 'x'.repeat(121) }, { name: 5 }, {}]) {
      const response = await owner.put(groupsPaths.firmName, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await owner.put(groupsPaths.firmName, { name: ' ' })).json()).toMatchObject({ issues: [{ path: 'name', message: 'Escribe el nombre de la asesoría (al menos 2 caracteres)' }] });
    expect(await storedName()).toBe('Lucía Martín');
    expect((await server.app.inject({ method: 'PUT', url: groupsPaths.firmName, payload: { name: 'Sin sesión' } })).statusCode).toBe(401);
  });
});
