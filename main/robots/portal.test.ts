/**
 * End to end on this PC: a robot in its own process opens a real Chromium that presents the chosen
 * certificate (taken from a real store by CertificateSource.clientCertificate: a .p12 folder, and an
 * NSS database) to the stand-in portal, which greets the certificate's holder. And no robot or
 * Chromium outlives a stop or its agent's kill -9. Skipped without a Chromium binary, except in CI.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SELECTORS, startStandinPortal, type StandinPortal } from '../../standins/portal/portal.ts';
import { portalOptions } from '../../standins/portal/test-certificates.ts';
import type { CertificateSource } from '../bridge/context.ts';
import { keyFileSecretBox } from '../certificates/secret-box.ts';
import { createCertificateService } from '../certificates/service.ts';
import { createNssDatabase, nssToolsAvailable, type NssDatabase } from '../certificates/testing/nss-database.ts';
import { createPkcs12, createTestCertificate } from '../certificates/testing/spanish-certificates.ts';
import { createRobotRuntime } from './runtime.ts';
import type { RobotJob, RobotOutcome } from './types.ts';

const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const chromiumFound = existsSync(chromiumPath);
if (!chromiumFound && process.env.CI) throw new Error(`No Chromium at ${chromiumPath} (set CHROMIUM_PATH); CI must run the robot browser tests.`);
const nssHere = nssToolsAvailable();

const ana = createTestCertificate({ nif: '78816596N', givenName: 'ANA', surnames: 'MARTIN SANZ', keyType: 'ec' });
const luis = createTestCertificate({ nif: '12345678Z', givenName: 'LUIS', surnames: 'PEREZ GIL', keyType: 'rsa' });

describe.skipIf(!chromiumFound)(`robots drive Chromium with the chosen certificate (${chromiumPath})`, () => {
  let portal: StandinPortal;
  let root: string;
  let nss: NssDatabase | null = null;
  let runs = 0;

  beforeAll(async () => {
    portal = await startStandinPortal(portalOptions());
    root = await mkdtemp(join(tmpdir(), 'robot-portal-'));
    if (nssHere || process.env.CI) {
      nss = await createNssDatabase(root);
      await nss.importWithKey(luis);
    }
  }, 60_000);
  afterAll(async () => {
    await portal?.close();
    await nss?.remove();
    if (root) await rm(root, { recursive: true, force: true });
  });

  /** The certificate service of a PC whose .p12 folder holds Ana's, password-protected and unlocked. */
  async function folderService(): Promise<CertificateSource> {
    const data = await mkdtemp(join(root, 'datos-'));
    const folder = join(data, 'certificados');
    await mkdir(folder);
    await writeFile(join(folder, 'ana.p12'), createPkcs12(ana, 'Clave-1'));
    const service = createCertificateService({ platform: 'aix', settingsFile: join(data, 'certificates.json'), box: keyFileSecretBox(join(data, 'secret.key')), nssDatabase: 'sql:/nowhere' });
    await service.setFolder(folder);
    await service.unlock('ana.p12', 'Clave-1');
    return service;
  }

  function portalRun(certificates: CertificateSource, fingerprint: string, stopGraceMs = 2_000) {
    runs += 1;
    const runtime = createRobotRuntime({
      certificates,
      chromiumPath,
      robotsModule: new URL('./testing/robots.ts', import.meta.url),
      settingsOverrides: { portal: { baseUrl: portal.url, ignoreHTTPSErrors: true, selectors: { loginLink: SELECTORS.loginLink, welcome: SELECTORS.welcome } } },
      stopGraceMs,
    });
    const job: RobotJob = { runId: `portal-${runs}`, flowId: 'portal', inputs: { certificado: fingerprint }, timeLimitSeconds: 60, startedAt: new Date().toISOString(), outputFolder: join(root, `run-${runs}`) };
    const logs: string[] = [];
    const robot = runtime.start(job, { log: (_level, text) => logs.push(text), progress: () => undefined });
    return { robot, logs, job, runtime };
  }

  it('a certificate from the .p12 folder: the portal greets its holder, and the robot saves what it read', async () => {
    const { robot, logs, job } = portalRun(await folderService(), ana.fingerprint);
    const outcome = await robot.outcome;
    expect(outcome).toMatchObject({ kind: 'result', result: 'Success', summary: { bienvenida: 'Bienvenido/a, MARTIN SANZ ANA - 78816596N' }, outputFileNames: ['bienvenida.txt'] });
    expect(logs).toEqual(['Bienvenido/a, MARTIN SANZ ANA - 78816596N']);
    expect(await readFile(join(job.outputFolder, 'bienvenida.txt'), 'utf8')).toBe('Bienvenido/a, MARTIN SANZ ANA - 78816596N');
  }, 90_000);

  it.skipIf(!nssHere && !process.env.CI)('a certificate from a real NSS database (exported by pk12util) logs in the same way', async () => {
    if (!nss) throw new Error('no NSS database');
    const service = createCertificateService({ platform: 'linux', settingsFile: join(root, 'nss-settings.json'), box: keyFileSecretBox(join(root, 'nss-secret.key')), nssDatabase: nss.database });
    const outcome = await portalRun(service, luis.fingerprint).robot.outcome;
    expect(outcome).toMatchObject({ kind: 'result', summary: { bienvenida: 'Bienvenido/a, PEREZ GIL LUIS - 12345678Z' } });
  }, 90_000);

  it('a certificate that is not on this PC fails the run with the store\'s Spanish reason', async () => {
    const outcome = await portalRun(await folderService(), luis.fingerprint).robot.outcome;
    expect(outcome).toEqual({ kind: 'failed', message: 'El certificado elegido no está en este dispositivo' } satisfies RobotOutcome);
  }, 90_000);

  it('a stop closes the browser under a robot waiting on its page: stopped at once, no Chromium left', async () => {
    const runtime = createRobotRuntime({ certificates: await folderService(), chromiumPath, robotsModule: new URL('./testing/robots.ts', import.meta.url), stopGraceMs: 30_000 });
    const logs: string[] = [];
    const robot = runtime.start(
      { runId: 'espera', flowId: 'espera-en-pagina', inputs: { certificado: ana.fingerprint }, timeLimitSeconds: 60, startedAt: new Date().toISOString(), outputFolder: join(root, 'espera') },
      { log: (_level, text) => logs.push(text), progress: () => undefined },
    );
    const pid = await until(() => pidIn(logs.join('\n')));
    const browserPids = descendantsOf(pid);
    expect(browserPids.length).toBeGreaterThan(0);
    const stoppedAt = Date.now();
    robot.stop('user');
    await expect(robot.outcome).resolves.toEqual({ kind: 'stopped', by: 'user' });
    expect(Date.now() - stoppedAt).toBeLessThan(15_000); // far less than the 30 s grace: the robot ended itself
    expect(await gone([pid, ...browserPids], 10_000)).toEqual([]);
  }, 90_000);

  it('kill -9 of the agent leaves no robot and no Chromium behind', async () => {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const agent = spawn(process.execPath, ['--import', tsx, fileURLToPath(new URL('./testing/agent-stand-in.ts', import.meta.url)), 'navegador-colgado'], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, CHROMIUM_PATH: chromiumPath },
    });
    let output = '';
    agent.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    try {
      const pid = await until(() => pidIn(output));
      const browserPids = descendantsOf(pid);
      expect(browserPids.length).toBeGreaterThan(0);
      agent.kill('SIGKILL');
      expect(await gone([pid, ...browserPids], 15_000)).toEqual([]);
    } finally {
      agent.kill('SIGKILL');
    }
  }, 90_000);
});

const pidIn = (text: string) => Number(/pid (\d+)/.exec(text)?.[1]) || null;

async function until<T>(read: () => T | null, withinMs = 60_000): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = read();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Every process below `pid` (Chromium and its helpers), from ps. */
function descendantsOf(pid: number): number[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of rows) {
      if (ppid === parent) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return found;
}

/** Running, not a zombie waiting for a parent that no longer reaps (a container's init may not). */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

async function gone(pids: number[], withinMs: number): Promise<number[]> {
  const deadline = Date.now() + withinMs;
  while (pids.some(isAlive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  return pids.filter(isAlive);
}
