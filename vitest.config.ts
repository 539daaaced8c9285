import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/**
 * With TEST_DATABASE_URL set (CI starts PostgreSQL), the API suites that go through the harness run a
 * second time on PostgreSQL (server/test/harness.ts): those that start a test server themselves or
 * through a support module they import (e.g. billing/account-test-support.ts). Suites that open the
 * SQLite file themselves cannot, and are left to the SQLite run.
 */
const startsTestServer = (source: string) => source.includes('startTestServer');
const supportStartsTestServer = (file: string, source: string) =>
  [...source.matchAll(/from '(\.[^']+\.ts)'/g)].some(([, specifier = '']) => {
    const support = join(dirname(file), specifier);
    if (support.endsWith('.test.ts') || !existsSync(support)) return false;
    const supportSource = readFileSync(support, 'utf8');
    // It calls the harness's startTestServer (the harness itself, which defines it, does not count).
    return supportSource.includes('startTestServer(') && !supportSource.includes('function startTestServer');
  });
const apiSuitesOnPostgres = process.env.TEST_DATABASE_URL
  ? (readdirSync('server', { recursive: true, encoding: 'utf8' }) as string[])
      .map((path) => `server/${path}`)
      .filter((file) => file.endsWith('.test.ts'))
      .filter((file) => {
        const source = readFileSync(file, 'utf8');
        if (source.includes('better-sqlite3') || source.includes('test.sqlite')) return false;
        return startsTestServer(source) || supportStartsTestServer(file, source);
      })
  : [];

// Names this run's Postgres test databases, so the project's teardown drops its own and no other run's.
process.env.AUTOASESOR_TEST_RUN ??= randomBytes(4).toString('hex');
// Where scripts/vitest-child-bundles.ts builds the server's child processes for this run (server/child-command.ts):
// under dist/server/ so that their imports of node_modules resolve.
process.env.AUTOASESOR_CHILD_BUNDLES ??= join(fileURLToPath(new URL('dist/server/', import.meta.url)), `test-children-${process.env.AUTOASESOR_TEST_RUN}`);

// In CI a failed test runs once more, as the browser tests do (playwright.config.ts): on a loaded 2-core
// machine a few tests that wait on child processes and wall-clock leases (main/robots' runtime, the
// fair-share queue on PostgreSQL) missed their time once in a full run and passed alone. A test that
// fails twice still fails the run, and the reporter names every test that needed its second try.
const retry = process.env.CI ? 1 : 0;

// Unit and API tests sit beside the code. The renderer's run in jsdom, everything else in Node.
export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one on the 2-core machines this runs on. Much
    // of a test file's time is waiting (servers, child processes, PostgreSQL): two at once measured 1.6×
    // faster on the renderer suite alone (243 s → 150 s), with no test failing.
    maxWorkers: 2,
    // The default output, then the slowest files (scripts/vitest-slowest.ts).
    reporters: ['default', './scripts/vitest-slowest.ts'],
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          retry,
          include: ['shared/**/*.test.ts', 'server/**/*.test.ts', 'main/**/*.test.ts', 'preload/**/*.test.ts', 'scripts/**/*.test.ts', 'resources/flows/**/*.test.ts', 'standins/**/*.test.ts'],
          testTimeout: 20_000,
          // A worker's test files share their imports (the server, Fastify, zod, SheetJS…) instead of
          // loading them again per file: the project took 298 s alone, 206 s so. Each test builds its
          // own server, database and folders; nothing relies on a module's state starting fresh.
          isolate: false,
          globalSetup: ['scripts/vitest-child-bundles.ts'],
        },
      },
      ...(apiSuitesOnPostgres.length > 0
        ? [
          {
            test: {
              name: 'server-pg',
              environment: 'node',
              retry,
              include: apiSuitesOnPostgres,
              testTimeout: 20_000,
              isolate: false,
              env: { AUTOASESOR_TEST_DB: 'postgres' },
              globalSetup: ['scripts/vitest-child-bundles.ts', 'server/test/postgres-teardown.ts'],
            },
          },
        ]
        : []),
      {
        plugins: [react()],
        test: {
          name: 'renderer',
          environment: 'jsdom',
          retry,
          include: ['renderer/**/*.test.ts', 'renderer/**/*.test.tsx'],
          // A worker's test files share one module graph instead of each importing React, RTK and the
          // screens again: the project took 164 s in a full run, 42 s so. Testing Library unmounts after
          // every test; a test that needs modules of its own calls vi.resetModules (app/store.test.ts).
          isolate: false,
          setupFiles: ['renderer/test/setup.ts'],
        },
      },
    ],
  },
});
