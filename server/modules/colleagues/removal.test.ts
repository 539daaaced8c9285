import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT_REMOVED_MESSAGE, type Colleagues } from '#shared/api/colleagues.ts';
import type { SessionResponse } from '#shared/api/auth.ts';
import { devicesPaths } from '#shared/api/devices.ts';
import { connectDatabase } from '../../db/connect.ts';
import type { Database } from '../../db/schema.ts';
import { CookieJar, PASSWORD, registerUser, startTestServer, type TestServer } from '../../test/harness.ts';
import { DeviceClient, linkPc } from '../devices/test-support.ts';
import { insertFlow, insertRun, memberOf } from '../flowlogs/fixtures.ts';
import { accept, invite, joinFirm } from './test-support.ts';

const NOW = new Date('2026-03-02T09:00:00.000Z');
let server: TestServer;
let db: Kysely<Database>;
let ana: CookieJar;

beforeEach(async () => {
  server = await startTestServer({ now: () => NOW });
  db = connectDatabase(server.database);
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
  await insertFlow(db, { id: 'robot-de-prueba', name: 'Validar identificadores' });
});
afterEach(async () => {
  await db.destroy();
  await server.close();
});

const remove = (jar: CookieJar, userId: string) => jar.request({ method: 'DELETE', url: `/api/colleagues/${userId}` });
const login = (email: string, password = PASSWORD) => new CookieJar(server.app).post('/api/auth/login', { email, password });
const codeOf = (response: { json: <T>() => T }) => response.json<{ code: string }>().code;

async function insertSchedule(userId: string, groupId: string): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('flow_schedules')
    .values({
      id, group_id: groupId, user_id: userId, flow_id: 'robot-de-prueba', flow_name: 'Validar identificadores', scheduled_date: '2026-03-03T08:00:00.000Z',
      repeat: 1, every: 1, interval: 'day', flow_inputs: '{}', send_output_to_server: 1, machine_id: null, local_machine_hash: null, local_process: null,
      claimed_by: null, claimed_until: null, created_at: NOW.toISOString(), updated_at: NOW.toISOString(),
    })
    .execute();
  return id;
}

describe('DELETE /api/colleagues/:userId', () => {
  it('ends the colleague\'s sessions and PC tokens at once, refuses their sign-in and refresh, stops their schedules and keeps their runs', async () => {
    const luis = await joinFirm(server, ana, 'luis@asesoria.es');
    const member = await memberOf(db, 'luis@asesoria.es');
    await insertRun(db, { ...member, flowId: 'robot-de-prueba', createdAt: new Date(NOW.getTime() - 60_000).toISOString() });
    await insertSchedule(member.userId, member.groupId);
    const owner = await memberOf(db, 'ana@asesoria.es');
    await insertSchedule(owner.userId, owner.groupId);
    const pc = new DeviceClient(server, (await linkPc(luis, 'luis')).deviceToken);
    expect((await pc.get(devicesPaths.me)).statusCode).toBe(200);

    expect((await remove(ana, member.userId)).statusCode).toBe(204);

    expect((await luis.get('/api/users/me')).statusCode).toBe(401);
    expect((await pc.get(devicesPaths.me)).statusCode).toBe(401); // their linked PC's token too
    const refreshed = await luis.post('/api/auth/newtoken');
    expect(refreshed.statusCode).toBe(403);
    expect(refreshed.json()).toMatchObject({ code: 'ACCOUNT_REMOVED', message: ACCOUNT_REMOVED_MESSAGE, logoutReason: ACCOUNT_REMOVED_MESSAGE });
    const signIn = await login('luis@asesoria.es');
    expect(signIn.statusCode).toBe(403);
    expect(signIn.json()).toMatchObject({ code: 'ACCOUNT_REMOVED', message: ACCOUNT_REMOVED_MESSAGE });
    // A wrong password learns nothing about the account.
    expect((await login('luis@asesoria.es', 'Otra-Clave9!')).statusCode).toBe(401);

    const schedules = await db.selectFrom('flow_schedules').select('user_id').execute();
    expect(schedules.map((row) => row.user_id)).toEqual([owner.userId]);
    const history = (await ana.get('/api/flowlog')).json<{ total: number }>();
    expect(history.total).toBe(1);
    const listed = (await ana.get('/api/colleagues')).json<Colleagues>();
    expect(listed.members.map((m) => m.email)).toEqual(['ana@asesoria.es']);
  });

  it('tells a removed colleague why at the start-up restore', async () => {
    const luis = await joinFirm(server, ana, 'luis@asesoria.es');
    const member = await memberOf(db, 'luis@asesoria.es');
    expect((await remove(ana, member.userId)).statusCode).toBe(204);
    const restored = await luis.get('/api/auth/session');
    expect(restored.statusCode).toBe(200);
    expect(restored.json()).toEqual({ userData: null, logoutReason: ACCOUNT_REMOVED_MESSAGE });
  });

  it('refuses to remove the owner (409), and answers 404 for another firm\'s member or an unknown id', async () => {
    const owner = await memberOf(db, 'ana@asesoria.es');
    const ownSelf = await remove(ana, owner.userId);
    expect(ownSelf.statusCode).toBe(409);
    expect(codeOf(ownSelf)).toBe('CANNOT_REMOVE_OWNER');

    const eva = await registerUser(server.app, 'eva@otra.es', 'Eva Sanz');
    await joinFirm(server, eva, 'juan@otra.es');
    const juan = await memberOf(db, 'juan@otra.es');
    for (const id of [juan.userId, randomUUID(), 'no-es-un-id']) {
      const response = await remove(ana, id);
      expect(response.statusCode, id).toBe(404);
      expect(codeOf(response)).toBe('COLLEAGUE_NOT_FOUND');
    }
    expect((await login('juan@otra.es')).statusCode).toBe(200);
  });

  it('lets the owner invite a removed colleague again: accepting re-activates the same user with the new name and password', async () => {
    await joinFirm(server, ana, 'luis@asesoria.es', 'Luis Gil');
    const before = await memberOf(db, 'luis@asesoria.es');
    expect((await remove(ana, before.userId)).statusCode).toBe(204);
    expect((await remove(ana, before.userId)).statusCode).toBe(404); // already removed

    const token = await invite(server, ana, 'luis@asesoria.es');
    const back = new CookieJar(server.app);
    const joined = await accept(server, token, 'Luis Gil Martín', back);
    expect(joined.statusCode, joined.body).toBe(201);
    expect(joined.json<SessionResponse>().userData).toMatchObject({ uid: before.userId, name: 'Luis Gil Martín', role: 'member' });
    expect(server.countRows('users')).toBe(2);
    expect((await back.get('/api/colleagues')).json<Colleagues>().members.map((m) => m.email)).toEqual(['ana@asesoria.es', 'luis@asesoria.es']);
    expect((await login('luis@asesoria.es')).statusCode).toBe(200);
  });
});
