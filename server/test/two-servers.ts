import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../app.ts';
import type { ServerConfig } from '../server-config.ts';
import { dropDatabase, withDatabase } from './test-databases.ts';

export interface TwoServers {
  /** The two servers, once beforeAll has run; the first one migrated the database. */
  servers(): [FastifyInstance, FastifyInstance];
  database(): { kind: 'postgres'; url: string };
  /** One more server on the same database and storage, as a process (re)started mid-test would be; closed after. */
  startAnother(): Promise<FastifyInstance>;
}

/**
 * Inside a describe: a throwaway PostgreSQL database (created on `adminUrl`, dropped after) and two
 * servers on it sharing one storage folder, as two processes of one deployment would (a shared volume
 * in production). `config` adds to the servers' configuration (flows, limits).
 */
export function twoServersOnPostgres(adminUrl: string, prefix: string, config: Partial<ServerConfig> = {}): TwoServers {
  const name = `${prefix}_${randomUUID().replaceAll('-', '')}`;
  let admin: pg.Client | undefined;
  let storageDir = '';
  let database: { kind: 'postgres'; url: string } | undefined;
  let servers: FastifyInstance[] = [];
  let build: () => Promise<FastifyInstance> = () => Promise.reject(new Error('twoServersOnPostgres: used before beforeAll ran'));
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const shared = { kind: 'postgres' as const, url: withDatabase(adminUrl, name) };
    database = shared;
    storageDir = await mkdtemp(join(tmpdir(), `${prefix}-`));
    build = () => buildApp({ database: shared, storageDir, webRoot: '/nonexistent', publicUrl: 'http://app.test', cookieSecure: false, allowedOrigins: [], ...config });
    const first = await build(); // migrates (and installs pg-boss)
    servers = [first, await build()];
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    if (admin) {
      await dropDatabase(admin, name);
      await admin.end();
    }
    if (storageDir) await rm(storageDir, { recursive: true, force: true });
  });
  return {
    servers: () => servers.slice(0, 2) as [FastifyInstance, FastifyInstance],
    startAnother: async () => {
      const another = await build();
      servers.push(another);
      return another;
    },
    database: () => {
      if (!database) throw new Error('twoServersOnPostgres: used before beforeAll ran');
      return database;
    },
  };
}
