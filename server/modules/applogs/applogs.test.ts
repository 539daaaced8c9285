import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerUser, startTestServer, type TestServer } from '../../test/harness.ts';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => server.close());

function storedLogs() {
  const db = new Database(join(server.dir, 'test.sqlite'), { readonly: true });
  try {
    return db.prepare('select * from app_logs order by created_at').all() as Array<Record<string, unknown>>;
  } finally {
    db.close();
  }
}

const clientHeaders = { 'x-client-app': 'desktop', 'x-client-version': '1.4.2', 'accept-language': 'en-GB,en;q=0.9' };

describe('POST /api/applogs', () => {
  it('is public and stores the report with the client headers', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/applogs',
      headers: clientHeaders,
      payload: { message: 'TypeError: x is undefined', stack: 'at main.js:1', url: 'http://app.test/home', context: { route: '/home', n: 2 } },
    });
    expect(response.statusCode).toBe(201);
    expect(storedLogs()).toEqual([
      expect.objectContaining({
        level: 'error',
        message: 'TypeError: x is undefined',
        stack: 'at main.js:1',
        url: 'http://app.test/home',
        context: JSON.stringify({ route: '/home', n: 2 }),
        client_app: 'desktop',
        client_version: '1.4.2',
        client_language: 'en',
        user_id: null,
      }),
    ]);
  });

  it('records the user when signed in, and ignores an unknown client app', async () => {
    const jar = await registerUser(server.app, 'log@asesoria.es');
    const me = (await jar.get('/api/users/me')).json() as { userData: { uid: string } };
    await jar.request({ method: 'POST', url: '/api/applogs', headers: { 'x-client-app': 'curl' }, payload: { level: 'warn', message: 'lento' } });
    expect(storedLogs()).toEqual([expect.objectContaining({ level: 'warn', user_id: me.userData.uid, client_app: null, client_language: 'es' })]);
  });
});
