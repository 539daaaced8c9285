import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildServerCopy } from '../scripts/build-server.ts';
import { createNssDatabase, nssToolsAvailable } from '../main/certificates/testing/nss-database.ts';
import { startStandinPortal } from '../standins/portal/portal.ts';
import { portalOptions, serverAuthority } from '../standins/portal/test-certificates.ts';
import { startStandinDehu } from '../standins/dehu/dehu.ts';
import { dehuOptions } from '../standins/dehu/test-certificates.ts';
import { startA3Importer } from '../standins/a3-importer/importer.ts';
import { startStandinRedOnline } from '../standins/red-online/red-online.ts';
import { startMacroSite } from '../standins/macro-site/site.ts';
import { E2E_CERTIFICATES } from './certificates.ts';
import { startSmtpCapture } from './smtp-capture.ts';
import { startE2eMailProviders } from './mail-providers.ts';
import { startE2eStripe } from './stripe-standin.ts';
import { agentBridgeOf, freePort, startCompiledServer, startProcess, stop } from './processes.ts';
import { startPostgresServer } from './postgres-server.ts';

/**
 * Starts a real server (built renderer + API on a fresh SQLite file in a temp dir) and a headless
 * agent on loopback, and hands their addresses to the tests through the environment. The server is
 * the compiled JavaScript `npm start` runs, built afresh into a folder of this run's own (runs may
 * overlap); WEB_ROOT and the rest of the environment pass through.
 */
export default async function globalSetup() {
  const dataDir = await mkdtemp(join(tmpdir(), 'autoasesor-e2e-'));
  const serverLog = join(dataDir, 'server.log');
  // The server mails through a real SMTP server on loopback; tests read what it received (e2e/mailbox.ts).
  const mailbox = join(dataDir, 'mailbox.jsonl');
  const smtp = await startSmtpCapture(mailbox);
  const serverBuild = await buildServerCopy();
  // Google's and Microsoft's OAuth servers, Gmail and Graph: the server and the agent reach the stand-in
  // through the MAIL_* variables that name the real ones.
  const mail = await startE2eMailProviders();
  // Stripe: the server's official SDK reaches the stand-in through STRIPE_API_BASE; its webhooks come back signed.
  const stripe = await startE2eStripe();
  // A desktop that stops reporting loses its run after 6 s (60 s in production), so the kill -9 test is quick.
  const server = await startCompiledServer(serverBuild.entry, {
    dataDir,
    // Every test signs up its own firm from 127.0.0.1: more than the 50 sign-ups an hour one address gets.
    env: { RUN_LEASE_MS: '6000', SIGNUPS_PER_IP_HOUR: '1000', SMTP_URL: smtp.url, SMTP_FROM: 'AutoAsesor <no-reply@autoasesor.test>', ...mail.serverEnv, ...stripe.serverEnv },
    logFile: serverLog,
  });
  const { baseUrl } = server;
  mail.allowWebRedirect(baseUrl);
  stripe.sendWebhooksTo(baseUrl);

  // The same build on PostgreSQL (when TEST_DATABASE_URL is set, as in CI), for the specs that walk a
  // capability on both databases (documents.spec.ts); null elsewhere, and those walks then run on SQLite only.
  // No demo account there: its robots' first-start burst would land on the first tests of every lane.
  const postgres = process.env.TEST_DATABASE_URL
    ? await startPostgresServer(serverBuild.entry, process.env.TEST_DATABASE_URL, { dataDir: join(dataDir, 'pg'), env: { DEMO_ACCOUNT: '0', SIGNUPS_PER_IP_HOUR: '1000', SMTP_URL: smtp.url, SMTP_FROM: 'AutoAsesor <no-reply@autoasesor.test>' }, logFile: join(dataDir, 'server-pg.log') })
    : null;

  // The agent reads a real NSS store (Chrome's format on Linux) holding test certificates with their keys.
  const nss = await certificateStore(dataDir);
  // The administration portal the desktop robots drive: a mutual-TLS stand-in trusting the test CAs that
  // issued the store's certificates. The robots reach it through their settings' override, as they would
  // reach the real portal through theirs.
  const portal = await startStandinPortal(portalOptions());
  // RED Online (altas in Sistema RED) and A3's import folder, as the altas robots reach them: a mutual-TLS
  // stand-in trusting the same test CAs, and the A3 importer stand-in answering the '202 – MA' workbooks.
  const redOnline = await startStandinRedOnline(portalOptions());
  const a3Folder = join(dataDir, 'a3-importacion');
  await mkdir(a3Folder, { recursive: true });
  const a3 = startA3Importer({ folder: a3Folder, companies: [] });
  // DEHÚ's LEMA services: the SOAP stand-in checks each request's WS-Security signature and the TLS client
  // certificate against the same test CAs; the agent trusts its server certificate's CA through DEHU_CA_FILE.
  const dehu = await startStandinDehu(dehuOptions());
  const dehuCaFile = join(dataDir, 'dehu-server-ca.pem');
  await writeFile(dehuCaFile, serverAuthority().pem);
  // The site the firm's own robots are recorded on and replayed against (issue 41): its HTTPS side asks for
  // a client certificate of the same test CAs. The agent's recorder runs headless here and opens Chromium's
  // debugging port, so a test can act in the recording browser as the user would.
  const macroSite = await startMacroSite();
  const recorderPort = await freePort();
  const robotSettings = JSON.stringify({ 'descargar-justificantes': { baseUrl: portal.url, ignoreHTTPSErrors: true }, macros: { ignoreHTTPSErrors: true } });
  const agentEnv = {
    AGENT_ALLOWED_ORIGINS: baseUrl,
    AUTOASESOR_NSS_DB: nss ?? `sql:${join(dataDir, 'no-nssdb')}`,
    AUTOASESOR_ROBOT_SETTINGS: robotSettings,
    RED_ONLINE_URL: redOnline.url,
    RED_ONLINE_IGNORE_HTTPS_ERRORS: '1',
    A3_IMPORT_DIR: a3Folder,
    DEHU_LEMA_URL: dehu.lemaUrl,
    DEHU_REALIZADAS_URL: dehu.realizadasUrl,
    DEHU_CA_FILE: dehuCaFile,
    DEHU_SERVERNAME: 'localhost',
    AUTOASESOR_RECORDER_HEADLESS: '1',
    AUTOASESOR_RECORDER_CDP_PORT: String(recorderPort),
  };
  // The agent has no browser: the addresses it would open go to this file, and a test opens them in Chromium.
  const urlOpenerFile = join(dataDir, 'agent-opened-urls.txt');
  const agent = startProcess('node', ['--import', 'tsx', 'main/agent.ts'], { ...agentEnv, AGENT_URL_OPENER_FILE: urlOpenerFile, AGENT_PORT: '0', AUTOASESOR_AGENT_DATA: join(dataDir, 'agent') });
  const bridge = await agentBridgeOf(agent);

  process.env.E2E_BASE_URL = baseUrl;
  if (postgres) process.env.E2E_PG_BASE_URL = postgres.baseUrl;
  process.env.E2E_DATABASE_FILE = join(dataDir, 'autoasesor.sqlite');
  process.env.E2E_SERVER_LOG = serverLog;
  process.env.E2E_MAILBOX = mailbox;
  process.env.E2E_AGENT_URL = bridge.url;
  process.env.E2E_AGENT_TOKEN = bridge.token;
  if (nss) process.env.E2E_NSS_DB = nss;
  process.env.E2E_PORTAL_URL = portal.url;
  process.env.E2E_MACRO_SITE_URL = macroSite.httpsUrl ?? macroSite.url;
  process.env.E2E_RECORDER_CDP_PORT = String(recorderPort);
  process.env.E2E_DATA_DIR = dataDir;
  process.env.E2E_MAIL_PROVIDERS_URL = mail.providers.url;
  process.env.E2E_STRIPE_URL = stripe.standin.url;
  process.env.E2E_AGENT_URL_OPENER_FILE = urlOpenerFile;
  // What a test needs to start a second agent of its own (the kill -9 test).
  process.env.E2E_AGENT_ENV = JSON.stringify(agentEnv);

  return async () => {
    await Promise.all([stop(server.child), postgres?.stop(), stop(agent.child), portal.close(), macroSite.close(), redOnline.close(), dehu.close(), a3.close(), mail.providers.close(), stripe.standin.close()]);
    await smtp.close();
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
