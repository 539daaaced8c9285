import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerUser, startTestServer, type TestServer } from '../../test/harness.ts';
import { mergePreferences } from './service.ts';

describe('mergePreferences', () => {
  it('adds and replaces keys, and removes the ones set to null', () => {
    expect(mergePreferences({ a: 1, b: { x: true }, c: 'keep' }, { a: 2, b: null, d: [1] })).toEqual({ a: 2, c: 'keep', d: [1] });
  });
});

describe('/api/preferences', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(async () => server.close());

  it('starts empty, merges PATCHes and deletes null keys', async () => {
    const jar = await registerUser(server.app, 'pref@asesoria.es');
    expect((await jar.get('/api/preferences')).json()).toEqual({ preferences: {} });
    await jar.patch('/api/preferences', { sidebar: { open: true }, sort: ['titular', 'desc'] });
    const second = await jar.patch('/api/preferences', { sidebar: null, theme: 'claro' });
    expect(second.json()).toEqual({ preferences: { sort: ['titular', 'desc'], theme: 'claro' } });
    expect((await jar.get('/api/preferences')).json()).toEqual({ preferences: { sort: ['titular', 'desc'], theme: 'claro' } });
  });

  it('never shows one user’s preferences to another', async () => {
    const ana = await registerUser(server.app, 'ana@asesoria.es');
    const luis = await registerUser(server.app, 'luis@asesoria.es');
    await ana.patch('/api/preferences', { secreto: 'de Ana' });
    expect((await luis.get('/api/preferences')).json()).toEqual({ preferences: {} });
    await luis.patch('/api/preferences', { secreto: null, propio: 1 });
    expect((await ana.get('/api/preferences')).json()).toEqual({ preferences: { secreto: 'de Ana' } });
  });

  it('needs a session', async () => {
    expect((await server.app.inject({ method: 'GET', url: '/api/preferences' })).statusCode).toBe(401);
    const patch = await server.app.inject({ method: 'PATCH', url: '/api/preferences', payload: { a: 1 } });
    expect(patch.statusCode).toBe(401);
    expect(server.countRows('preferences')).toBe(0);
  });
});

describe('/api/preferences caps', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(async () => server.close());

  it('refuses to grow the stored row past 64 KB (413 in Spanish), keeping what was stored', async () => {
    const jar = await registerUser(server.app, 'grande@asesoria.es');
    const chunk = 'x'.repeat(20_000);
    for (const key of ['a', 'b', 'c']) expect((await jar.patch('/api/preferences', { [key]: chunk })).statusCode).toBe(200);
    // Each PATCH is small; together they would pass the cap (the attack grew one row to 40 MB).
    const fourth = await jar.patch('/api/preferences', { d: chunk });
    expect(fourth.statusCode).toBe(413);
    expect(fourth.json()).toEqual({
      statusCode: 413,
      code: 'PREFERENCES_TOO_LARGE',
      message: 'Las preferencias no pueden ocupar más de 64 KB. Borra alguna antes de guardar otra.',
    });
    expect(Object.keys((await jar.get('/api/preferences')).json().preferences)).toEqual(['a', 'b', 'c']);
    // Removing is always allowed, and frees room.
    expect((await jar.patch('/api/preferences', { a: null })).statusCode).toBe(200);
    expect((await jar.patch('/api/preferences', { d: chunk })).statusCode).toBe(200);
  });

  it('refuses a single PATCH bigger than the cap before reading it', async () => {
    const jar = await registerUser(server.app, 'enorme@asesoria.es');
    const response = await jar.patch('/api/preferences', { a: 'x'.repeat(1_000_000) });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: 'La petición es demasiado grande' });
    expect(server.countRows('preferences')).toBe(0);
  });

  it('refuses more than 200 keys in all (400 in Spanish), nothing written', async () => {
    const jar = await registerUser(server.app, 'muchas@asesoria.es');
    const keys = (from: number) => Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${from + i}`, i]));
    expect((await jar.patch('/api/preferences', keys(0))).statusCode).toBe(200);
    expect((await jar.patch('/api/preferences', keys(100))).statusCode).toBe(200);
    const third = await jar.patch('/api/preferences', { extra: true });
    expect(third.statusCode).toBe(400);
    expect(third.json()).toEqual({
      statusCode: 400,
      code: 'PREFERENCES_TOO_MANY',
      message: 'No se pueden guardar más de 200 preferencias. Borra alguna antes de guardar otra.',
    });
    expect(Object.keys((await jar.get('/api/preferences')).json().preferences)).toHaveLength(200);
  });
});
