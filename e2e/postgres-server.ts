import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import pg from 'pg';
import { dropDatabase, withDatabase } from '../server/test/test-databases.ts';
import { startCompiledServer, stop } from './processes.ts';

/**
 * A second compiled server of the suite on a fresh PostgreSQL database of its own (created here,
 * dropped at the end), for the browser walks that must hold on both databases.
 */
export async function startPostgresServer(entry: string, adminUrl: string, options: { dataDir: string; env: NodeJS.ProcessEnv; logFile: string }): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  const name = `autoasesor_e2e_${randomBytes(5).toString('hex')}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`create database ${name}`);
  await mkdir(options.dataDir, { recursive: true });
  try {
    const server = await startCompiledServer(entry, { dataDir: options.dataDir, env: { ...options.env, DATABASE_URL: withDatabase(adminUrl, name) }, logFile: options.logFile });
    return {
      baseUrl: server.baseUrl,
      stop: async () => {
        await stop(server.child);
        await dropDatabase(client, name);
        await client.end();
      },
    };
  } catch (error) {
    await dropDatabase(client, name);
    await client.end();
    throw error;
  }
}
