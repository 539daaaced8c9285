import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildServerCopy } from '../scripts/build-server.ts';
import { createNssDatabase, nssToolsAvailable } from '../main/certificates/testing/nss-database.ts';
import { E2E_CERTIFICATES } from './certificates.ts';
import { freePort, startProcess, stop, waitFor } from './processes.ts';

/**
 * Starts a real server (built renderer + API on a fresh SQLite file in a temp dir) and a headless
 * agent on loopback, and hands their addresses to the tests through the environment. The server is
 * the compiled JavaScript `npm start` runs, built afresh into a folder of this run's own (runs may
 * overlap); WEB_ROOT and the rest of the environment pass through.
 */
export default async function globalSetup() {
  const dataDir = await mkdtemp(join(tmpdir(), 'autoasesor-e2e-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;

  // Without SMTP the server logs each emailed link; tests read them from this file (e2e/mailbox.ts).
  const serverLog = join(dataDir, 'server.log');
  const serverBuild = await buildServerCopy();
  const server = startProcess('node', ['--enable-source-maps', serverBuild.entry], {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: baseUrl,
    NODE_ENV: 'test',
    SMTP_URL: '',
  }, serverLog);
  await waitFor('the server', async () => ((await fetch(`${baseUrl}/api/health`)).ok ? true : undefined), 60_000, server.output);

  // The agent reads a real NSS store (Chrome's format on Linux) holding test certificates with their keys.
  const nss = await certificateStore(dataDir);
  const agent = startProcess('node', ['--import', 'tsx', 'main/agent.ts'], {
    AGENT_PORT: '0',
    AGENT_ALLOWED_ORIGINS: baseUrl,
    AUTOASESOR_AGENT_DATA: join(dataDir, 'agent'),
    AUTOASESOR_NSS_DB: nss ?? `sql:${join(dataDir, 'no-nssdb')}`,
  });
  const bridge = await waitFor(
    'the agent',
    async () => {
      const line = agent.output().split('\n').find((text) => text.startsWith('{"agentBridge"'));
      return line ? (JSON.parse(line) as { agentBridge: { url: string; token: string } }).agentBridge : undefined;
    },
    30_000,
    agent.output,
  );

  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_DATABASE_FILE = join(dataDir, 'autoasesor.sqlite');
  process.env.E2E_SERVER_LOG = serverLog;
  process.env.E2E_AGENT_URL = bridge.url;
  process.env.E2E_AGENT_TOKEN = bridge.token;
  if (nss) process.env.E2E_NSS_DB = nss;

  return async () => {
    await Promise.all([stop(server.child), stop(agent.child)]);
    await Promise.all([rm(dataDir, { recursive: true, force: true }), rm(serverBuild.dir, { recursive: true, force: true })]);
  };
}

/** A fresh NSS database with the e2e certificates; null (the tests that need it skip) without NSS's tools, outside CI. */
async function certificateStore(dataDir: string): Promise<string | null> {
  if (!nssToolsAvailable()) {
    if (process.env.CI) throw new Error('certutil/pk12util are missing: install libnss3-tools (.ci/run does).');
    return null;
  }
  const store = await createNssDatabase(dataDir);
  await store.importAllWithKeys(E2E_CERTIFICATES.map((entry) => entry.certificate));
  return store.database;
}
