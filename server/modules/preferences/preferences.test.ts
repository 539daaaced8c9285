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
