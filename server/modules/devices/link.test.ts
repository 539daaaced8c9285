import { createHash, randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEVICE_TOKEN_INVALID_MESSAGE, devicesPaths } from '#shared/api/devices.ts';
import { pathFor } from '#shared/api/flows.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { machineHash, machinesOf, registerColleague, withDatabase } from '../machines/test-support.ts';
import { DeviceClient, linkPc } from './test-support.ts';

let server: TestServer;
let ana: CookieJar;

beforeEach(async () => {
  server = await startTestServer();
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
});
afterEach(async () => server.close());

const revokeUrl = (machineId: string) => pathFor(devicesPaths.deviceToken, { id: machineId });

describe('linking a PC (POST /api/machines/link)', () => {
  it('registers the PC for its user, gives it a token the server keeps only as a hash, and shows it linked and then online', async () => {
    const response = await ana.post(devicesPaths.link, { machineHashCode: machineHash('despacho'), machineName: '  PC del despacho ' });
    expect(response.statusCode, response.body).toBe(201);
    const link = response.json() as { machine: { _id: string; name: string }; deviceToken: string };
    expect(link.machine.name).toBe('PC del despacho');
    expect(Buffer.from(link.deviceToken, 'base64url')).toHaveLength(32);

    const stored = await withDatabase(server, (db) => db.selectFrom('device_tokens').selectAll().execute());
    expect(stored).toEqual([expect.objectContaining({ machine_id: link.machine._id, token_hash: createHash('sha256').update(link.deviceToken).digest('hex'), last_used_at: null })]);
    expect(JSON.stringify(stored)).not.toContain(link.deviceToken);

    const [before] = await machinesOf(ana);
    expect(before).toMatchObject({ _id: link.machine._id, mine: true, linked: true, online: false, lastSeenAt: null });

    const me = await new DeviceClient(server, link.deviceToken).get(devicesPaths.me);
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json()).toEqual({ machine: { _id: link.machine._id, name: 'PC del despacho' }, user: { email: 'ana@asesoria.es', name: 'Ana Pérez' } });
    const [after] = await machinesOf(ana);
    expect(after).toMatchObject({ linked: true, online: true, lastSeenAt: expect.any(String) });
  });

  it('links a PC already synced by the same user (200), and a new link ends the earlier token', async () => {
    const first = await linkPc(ana, 'despacho');
    const again = await ana.post(devicesPaths.link, { machineHashCode: machineHash('despacho'), machineName: 'Portátil' });
    expect(again.statusCode).toBe(200);
    const second = again.json() as { machine: { _id: string }; deviceToken: string };
    expect(second.machine._id).toBe(first.machine._id);
    expect(second.deviceToken).not.toBe(first.deviceToken);

    const old = await new DeviceClient(server, first.deviceToken).get(devicesPaths.me);
    expect(old.statusCode).toBe(401);
    expect(old.json()).toMatchObject({ code: 'DEVICE_TOKEN_INVALID', message: DEVICE_TOKEN_INVALID_MESSAGE });
    expect((await new DeviceClient(server, second.deviceToken).get(devicesPaths.me)).statusCode).toBe(200);
    expect(server.countRows('device_tokens')).toBe(1);
    expect(server.countRows('machines')).toBe(1);
  });

  it('refuses a colleague’s PC (403) without a token, and bad bodies (400) without writing anything', async () => {
    await linkPc(ana, 'despacho');
    const luis = await registerColleague(server, 'luis@asesoria.es', 'ana@asesoria.es');
    const refused = await luis.post(devicesPaths.link, { machineHashCode: machineHash('despacho'), machineName: 'Mío' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ message: 'Este dispositivo pertenece a otra persona de tu despacho' });
    expect(server.countRows('device_tokens')).toBe(1);

    for (const body of [{}, { machineHashCode: 'abc', machineName: 'PC' }, { machineHashCode: machineHash('x'), machineName: '   ' }, { machineHashCode: machineHash('x'), machineName: 'PC', extra: 1 }]) {
      const response = await luis.post(devicesPaths.link, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(server.countRows('machines')).toBe(1);
    expect(server.countRows('device_tokens')).toBe(1);
    expect((await server.app.inject({ method: 'POST', url: devicesPaths.link, payload: { machineHashCode: machineHash('x'), machineName: 'PC' } })).statusCode).toBe(401);
  });
});

describe('revoking a PC (DELETE /api/machines/:id/device-token)', () => {
  it('lets the owner end the token at once; a colleague gets 403 on a shared PC and 404 on a private one; another firm 404', async () => {
    const link = await linkPc(ana, 'despacho');
    const device = new DeviceClient(server, link.deviceToken);
    const luis = await registerColleague(server, 'luis@asesoria.es', 'ana@asesoria.es');
    const outsider = await registerUser(server.app, 'eva@otra.es');

    expect((await luis.request({ method: 'DELETE', url: revokeUrl(link.machine._id) })).statusCode).toBe(404);
    await ana.patch(pathFor('/api/machines/:id', { id: link.machine._id }), { shared: true });
    const colleague = await luis.request({ method: 'DELETE', url: revokeUrl(link.machine._id) });
    expect(colleague.statusCode).toBe(403);
    expect(colleague.json()).toMatchObject({ message: 'Solo quien registró este dispositivo puede revocar su acceso' });
    expect((await outsider.request({ method: 'DELETE', url: revokeUrl(link.machine._id) })).statusCode).toBe(404);
    expect((await ana.request({ method: 'DELETE', url: revokeUrl(randomUUID()) })).statusCode).toBe(404);
    expect((await ana.request({ method: 'DELETE', url: revokeUrl('no-es-un-id') })).statusCode).toBe(400);
    expect((await device.get(devicesPaths.me)).statusCode).toBe(200);

    expect((await ana.request({ method: 'DELETE', url: revokeUrl(link.machine._id) })).statusCode).toBe(204);
    expect((await device.get(devicesPaths.me)).statusCode).toBe(401);
    expect((await device.next(0)).statusCode).toBe(401);
    const [machine] = await machinesOf(ana);
    expect(machine).toMatchObject({ _id: link.machine._id, linked: false });
  });
});

describe('device authentication', () => {
  it('answers 401 without a valid `Device` token, and never takes a session cookie instead', async () => {
    const link = await linkPc(ana, 'despacho');
    const noHeader = await server.app.inject({ method: 'GET', url: devicesPaths.me });
    expect(noHeader.statusCode).toBe(401);
    expect(noHeader.json()).toMatchObject({ code: 'DEVICE_TOKEN_INVALID', message: DEVICE_TOKEN_INVALID_MESSAGE });
    for (const authorization of [`Bearer ${link.deviceToken}`, 'Device ', `Device ${link.deviceToken}x`, `Device ${link.deviceToken} otro`]) {
      const response = await server.app.inject({ method: 'GET', url: devicesPaths.me, headers: { authorization } });
      expect(response.statusCode, authorization).toBe(401);
    }
    // Signed in, but no device token: the device API does not answer to cookies.
    expect((await ana.get(devicesPaths.me)).statusCode).toBe(401);
    expect((await ana.get(`${devicesPaths.nextRun}?wait=0`)).statusCode).toBe(401);
  });

  it('stops answering a token once its user has left the firm or its machine is deleted', async () => {
    const link = await linkPc(ana, 'despacho');
    const device = new DeviceClient(server, link.deviceToken);
    expect((await ana.request({ method: 'DELETE', url: pathFor('/api/machines/:id', { id: link.machine._id }) })).statusCode).toBe(204);
    expect((await device.get(devicesPaths.me)).statusCode).toBe(401);
    expect(server.countRows('device_tokens')).toBe(0);

    const second = await linkPc(ana, 'portátil');
    await registerUser(server.app, 'otra@otra.es');
    await withDatabase(server, async (db) => {
      const { group_id: groupId } = await db.selectFrom('users').select('group_id').where('email', '=', 'otra@otra.es').executeTakeFirstOrThrow();
      await db.updateTable('users').set({ group_id: groupId }).where('email', '=', 'ana@asesoria.es').execute();
    });
    expect((await new DeviceClient(server, second.deviceToken).get(devicesPaths.me)).statusCode).toBe(401);
  });
});
