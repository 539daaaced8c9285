import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startProcess, stop, waitFor } from '../e2e/processes.ts';
import { buildServerCopy } from './build-server.ts';

let build: { entry: string; dir: string };
beforeAll(async () => {
  build = await buildServerCopy();
});
afterAll(async () => {
  await rm(build.dir, { recursive: true, force: true });
});

describe('the compiled server', () => {
  it('is one ESM file of our code that imports its packages from node_modules', async () => {
    const code = await readFile(build.entry, 'utf8');
    expect(code).toContain('from "fastify"');
    expect(code).toContain('from "better-sqlite3"');
    // Our own modules are inside: nothing refers to the sources or to #shared any more.
    expect(code).not.toMatch(/from "(#shared|\.{1,2}\/)/);
  });

  it('starts with plain node, migrates a fresh database and signs in the seeded demo account', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'autoasesor-build-'));
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const server = startProcess('node', [build.entry], { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, NODE_ENV: 'test', WEB_ROOT: dataDir });
    try {
      await waitFor('the compiled server', async () => ((await fetch(`${baseUrl}/api/health`)).ok ? true : undefined), 30_000, server.output);
      const login = await fetch(`${baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: baseUrl },
        body: JSON.stringify({ email: 'demo@autoasesor.es', password: 'Demo1234!' }),
      });
      expect(login.status).toBe(200);
      expect(((await login.json()) as { userData: { email: string } }).userData.email).toBe('demo@autoasesor.es');
    } finally {
      await stop(server.child);
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
