import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import type { DatabaseConfig } from '../../db/connect.ts';

/**
 * Several server processes on one database (PostgreSQL in production; two connections to one SQLite
 * file here too) must share the limits: parallel guesses spread over two servers get exactly the
 * allowance, not one allowance per server.
 */
async function twoServers(database: DatabaseConfig): Promise<FastifyInstance[]> {
  const build = () =>
    buildApp({ database, webRoot: '/nonexistent', publicUrl: 'http://app.test', cookieSecure: false, allowedOrigins: [], loginRateLimit: { max: 10, timeWindowMs: 60_000 } });
  const first = await build(); // migrates
  return [first, await build()];
}

async function guessInParallel(servers: FastifyInstance[]): Promise<number[]> {
  const answers = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      servers[i % 2]?.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'objetivo@asesoria.es', password: `Mala${i}234!` }, remoteAddress: '203.0.113.50' }),
    ),
  );
  return answers.map((answer) => answer?.statusCode ?? 0);
}

describe('limits shared by servers on one SQLite file', () => {
  let dir: string;
  let servers: FastifyInstance[] = [];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'autoasesor-shared-db-'));
    servers = await twoServers({ kind: 'sqlite', file: join(dir, 'shared.sqlite') });
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('lets exactly the account’s allowance through, not one per server', async () => {
    const statuses = await guessInParallel(servers);
    // The account's 5 free tries plus the one that starts its back-off; per server it would be twice that.
    expect(statuses.filter((status) => status === 401)).toHaveLength(6);
    expect(statuses.filter((status) => status === 429)).toHaveLength(34);
  });
});

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('limits shared by servers on one PostgreSQL database (TEST_DATABASE_URL)', () => {
  const name = `autoasesor_shared_${randomUUID().replaceAll('-', '')}`;
  let admin: pg.Client;
  let servers: FastifyInstance[] = [];
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const scoped = new URL(url ?? '');
    scoped.pathname = `/${name}`;
    servers = await twoServers({ kind: 'postgres', url: scoped.toString() });
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await admin?.query(`drop database if exists ${name}`);
    await admin?.end();
  });

  it('lets exactly the account’s allowance through, not one per server', async () => {
    const statuses = await guessInParallel(servers);
    // The account's 5 free tries plus the one that starts its back-off; per server it would be twice that.
    expect(statuses.filter((status) => status === 401)).toHaveLength(6);
    expect(statuses.filter((status) => status === 429)).toHaveLength(34);
  });
});
