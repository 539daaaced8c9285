import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { routesFromTree } from '../server/test/route-table.ts';
import { runSweep } from './sweep.ts';

describe('bad-input sweep', () => {
  it('reads every route from the printed route tree, joining nested segments', () => {
    const tree = [
      '├── /api/health (GET, HEAD)',
      '├── /api/auth/resetpass (POST)',
      '│   └── check (POST)',
      '├── /api/users (POST, PUT)',
      '│   ├── /me (GET, HEAD)',
      '│   └── /emailcheck/:email (GET, HEAD)',
      '└── /api/x',
      '    └── /y (DELETE)',
    ].join('\n');
    expect(routesFromTree(tree)).toEqual([
      { method: 'GET', url: '/api/health' },
      { method: 'POST', url: '/api/auth/resetpass' },
      { method: 'POST', url: '/api/auth/resetpasscheck' },
      { method: 'POST', url: '/api/users' },
      { method: 'PUT', url: '/api/users' },
      { method: 'GET', url: '/api/users/me' },
      { method: 'GET', url: '/api/users/emailcheck/:email' },
      { method: 'DELETE', url: '/api/x/y' },
    ]);
  });

  it('catches a 500 and a write on rejected input (the gate can fail)', async () => {
    const figures = await runSweep({
      small: true,
      build: async (config) => {
        if (config.database.kind !== 'sqlite') throw new Error('sqlite only');
        const db = new SqliteDatabase(config.database.file);
        db.exec('create table audit (id integer primary key)');
        const app = Fastify();
        app.addHook('onClose', async () => db.close());
        app.get('/api/boom', async () => {
          throw new Error('sin manejar');
        });
        app.post('/api/careless', async (_request, reply) => {
          db.prepare('insert into audit default values').run();
          return reply.code(400).send({ error: 'entrada rechazada' });
        });
        // Refuses its upload but leaves the file in the storage folder.
        let leftBehind = 0;
        app.put('/api/leaky', async (_request, reply) => {
          await mkdir(config.storageDir ?? '', { recursive: true });
          await writeFile(join(config.storageDir ?? '', `subida-${(leftBehind += 1)}`), 'basura');
          return reply.code(415).send({ error: 'tipo rechazado' });
        });
        await app.ready();
        return app;
      },
    });
    expect(figures.routes.map((route) => `${route.method} ${route.url}`)).toEqual(['GET /api/boom', 'POST /api/careless', 'PUT /api/leaky']);
    expect(figures.serverErrors.length).toBeGreaterThan(0);
    expect(figures.serverErrors.every((finding) => finding.url === '/api/boom')).toBe(true);
    expect(figures.writesOnRejected.length).toBeGreaterThan(0);
    expect(figures.writesOnRejected[0]).toMatchObject({ url: '/api/careless', status: 400, tables: ['audit'] });
    expect(figures.writesOnRejected.find((finding) => finding.url === '/api/leaky')).toMatchObject({ status: 415, tables: ['(disco: 1 archivos)'] });
  });

  // The real API: every route, signed out and in. Holds issue 9's figures at 0 and 0.
  it('the API answers the small battery with no 5xx and no writes on rejected input', async () => {
    const figures = await runSweep({ small: true });
    expect(figures.signedIn).toBe(true);
    // The multipart routes behind a device's token and a company's session were reached too.
    expect(figures.credentials).toEqual(['device', 'company']);
    expect(figures.routes.length).toBeGreaterThan(10);
    expect(figures.requests).toBeGreaterThan(500);
    expect(figures.serverErrors).toEqual([]);
    expect(figures.writesOnRejected).toEqual([]);
    expect(figures.ledger.firms).toBeGreaterThan(0);
    expect(figures.ledger.mismatches).toEqual([]);
  }, 120_000);
});
