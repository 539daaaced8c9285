import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activeNotesResponseSchema } from '#shared/api/notes.ts';
import { registerUser, startTestServer, type TestServer } from '../../test/harness.ts';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => server.close());

describe('GET /api/notes/active', () => {
  it('lists the seeded notes newest first, signed in or not', async () => {
    const anonymous = activeNotesResponseSchema.parse((await server.app.inject({ method: 'GET', url: '/api/notes/active' })).json());
    expect(anonymous.items).toHaveLength(2);
    const dates = anonymous.items.map((note) => note.createAt);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(anonymous.items.every((note) => note.content.startsWith('## '))).toBe(true);

    const jar = await registerUser(server.app, 'notas@asesoria.es');
    expect((await jar.get('/api/notes/active')).json()).toEqual(anonymous);
  });

  it('leaves out inactive notes and puts a newer one first', async () => {
    const db = new Database(join(server.dir, 'test.sqlite'));
    const insert = db.prepare('insert into release_notes (id, content, active, created_at) values (?, ?, ?, ?)');
    insert.run('n-new', '## Nueva', 1, '2030-01-01T00:00:00.000Z');
    insert.run('n-off', '## Retirada', 0, '2031-01-01T00:00:00.000Z');
    db.close();
    const { items } = activeNotesResponseSchema.parse((await server.app.inject({ method: 'GET', url: '/api/notes/active' })).json());
    expect(items.map((note) => note.id)).not.toContain('n-off');
    expect(items[0]).toEqual({ id: 'n-new', content: '## Nueva', createAt: '2030-01-01T00:00:00.000Z' });
  });
});
