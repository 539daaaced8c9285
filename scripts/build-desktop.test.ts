/**
 * The desktop build (scripts/build-desktop.ts) into a folder of its own under dist/ (so node_modules
 * still resolves, as it does inside the packaged app): main.js, and beside it robot-process.js, which a
 * built app forks for each run with plain JavaScript, no tsx. The built robot process is driven over
 * its IPC protocol: the real 'Descargar justificantes' bundled in it logs in to the mutual-TLS stand-in
 * portal with a test certificate and returns its PDFs (when Chromium is here), and a flow it does not
 * hold, or a certificate the PC refuses, fails in Spanish.
 */
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RobotResult } from '#shared/flows/robot.ts';
import { createPkcs12, createTestCertificate } from '../main/certificates/testing/spanish-certificates.ts';
import type { ChildMessage, ParentMessage, RobotProcessJob } from '../main/robots/protocol.ts';
import { robotProcessCommand } from '../main/robots/runtime.ts';
import { startStandinPortal, type StandinPortal } from '../standins/portal/portal.ts';
import { portalOptions } from '../standins/portal/test-certificates.ts';
import { buildDesktop, DESKTOP_EXTERNALS } from './build-desktop.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const chromiumFound = existsSync(chromiumPath);
if (!chromiumFound && process.env.CI) throw new Error(`No Chromium at ${chromiumPath} (set CHROMIUM_PATH); CI must run the built robot against the stand-in portal.`);

let outDir: string;
beforeAll(async () => {
  await mkdir(join(root, 'dist'), { recursive: true });
  outDir = await mkdtemp(join(root, 'dist', 'desktop-test-'));
  await buildDesktop(outDir);
}, 120_000);
afterAll(async () => {
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

/** The built robot process, as the packaged runtime starts it, with what it says. */
function startBuiltRobot() {
  const { entry, execArgv, env } = robotProcessCommand(512, pathToFileURL(join(outDir, 'main.js')).href);
  const child: ChildProcess = fork(entry, [], { execArgv, env, serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  const messages: ChildMessage[] = [];
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const next = (type: ChildMessage['type'], withinMs = 60_000) =>
    new Promise<ChildMessage>((resolve, reject) => {
      const found = messages.find((message) => message.type === type);
      if (found) return resolve(found);
      const timer = setTimeout(() => reject(new Error(`no '${type}' from the built robot process; stderr: ${stderr}`)), withinMs);
      const listener = (message: ChildMessage) => {
        if (message.type !== type) return;
        clearTimeout(timer);
        child.off('message', listener);
        resolve(message);
      };
      child.on('message', listener);
    });
  child.on('message', (message: ChildMessage) => messages.push(message));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const send = (message: ParentMessage) => child.send(message);
  return { entry, execArgv, child, messages, next, send, exited };
}

function job(flowId: string, overrides: Partial<RobotProcessJob> = {}): RobotProcessJob {
  return {
    runId: `built-${flowId}`,
    flowId,
    inputs: {},
    files: {},
    startedAt: '2026-11-24T09:00:00.000Z',
    robotsModule: null,
    settingsOverrides: {},
    chromiumPath,
    ...overrides,
  };
}

describe('the desktop build', () => {
  it('puts robot-process.js beside main.js; the packaged runtime forks it as plain JavaScript, without tsx', async () => {
    const files = await readdir(outDir);
    expect(files).toEqual(expect.arrayContaining(['main.js', 'robot-process.js', 'preload.cjs']));
    const robot = startBuiltRobot();
    try {
      expect(robot.entry).toBe(join(outDir, 'robot-process.js'));
      expect(robot.execArgv.join(' ')).not.toContain('tsx');
      // Our code and our packages are inside: besides Node's own modules and our chunks, the bundles
      // import only what the package ships beside them (electron-builder.yml keeps just those).
      const chunks = (await readdir(join(outDir, 'chunks'))).map((chunk) => join('chunks', chunk));
      const imported = new Set<string>();
      const withSheetJs: string[] = [];
      for (const file of ['main.js', 'robot-process.js', ...chunks]) {
        const code = await readFile(join(outDir, file), 'utf8');
        const specifiers = [...code.matchAll(/^import [^;]*?from "([^"]+)"|\bimport\("([^"]+)"\)|__require\("([^"]+)"\)/gm)].map((match) => match[1] ?? match[2] ?? match[3]);
        for (const specifier of specifiers) if (specifier && !specifier.startsWith('.') && !isBuiltin(specifier)) imported.add(specifier);
        // The server's robots stay out of the desktop build, and the spreadsheet library is only in the
        // chunk of the A3 import's workbooks (main/a3/workbook.ts), loaded on the first A3 sync, and in the
        // robot process's chunk of the macro player (main/macros/robot.ts), loaded by a macro's run only.
        // (Its own code, by the generator it writes: our xlsx writer's comments name SheetJS too.)
        if (code.includes('<meta:generator>SheetJS')) withSheetJs.push(file);
      }
      expect(withSheetJs.sort()).toEqual([expect.stringMatching(/^chunks\/robot-/), expect.stringMatching(/^chunks\/workbook-/)]);
      expect([...imported].sort()).toEqual([...DESKTOP_EXTERNALS].sort());

      await robot.next('ready');
      robot.send({ type: 'start', job: job('no-existe') });
      expect(await robot.next('failed')).toEqual({ type: 'failed', message: 'El robot no-existe no está instalado en este equipo' });
      expect(await robot.exited).toBe(0);
    } finally {
      robot.child.kill('SIGKILL');
    }
  });

  it('main.js loads all it bundles in plain Node (with a stand-in for electron) and starts', async () => {
    // Electron cannot run here: this stand-in says another instance holds the lock, so start() quits at once.
    await writeFile(join(outDir, 'electron-stand-in.mjs'), [
      'const quit = () => process.stdout.write("quit\\n");',
      'export const app = { requestSingleInstanceLock: () => false, quit };',
      'export const BrowserWindow = {}, dialog = {}, ipcMain = {}, safeStorage = {}, session = {}, shell = {};',
    ].join('\n'));
    const stub = pathToFileURL(join(outDir, 'electron-stand-in.mjs')).href;
    const hooks = `export async function resolve(specifier, context, next) { return specifier === 'electron' ? { url: ${JSON.stringify(stub)}, shortCircuit: true } : next(specifier, context); }`;
    await writeFile(join(outDir, 'electron-hooks.mjs'), `import { register } from 'node:module';\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});\n`);
    const started = spawnSync(process.execPath, ['--import', pathToFileURL(join(outDir, 'electron-hooks.mjs')).href, join(outDir, 'main.js')], { encoding: 'utf8', timeout: 30_000 });
    expect(started.stderr).toBe('');
    expect(started.stdout).toBe('quit\n');
    expect(started.status).toBe(0);
  });

  it('a spare of the built app prepares without any browser asked of it, then runs one job', async () => {
    const robot = startBuiltRobot();
    try {
      await robot.next('ready');
      robot.send({ type: 'prepare', robotsModule: null, chromiumPath, browser: false });
      await robot.next('prepared');
      robot.send({ type: 'start', job: job('descargar-justificantes', { inputs: { certificado: '', desde: '2026-01-01', hasta: '2026-12-31' } }) });
      // The bundled flow read its inputs and answered before opening any browser.
      const result = (await robot.next('result')) as Extract<ChildMessage, { type: 'result' }>;
      expect(result.result).toMatchObject({ result: 'WrongInput', message: 'Elige el certificado con el que se entra en el portal.', usageUnits: 0 });
      expect(await robot.exited).toBe(0);
    } finally {
      robot.child.kill('SIGKILL');
    }
  });

  describe.skipIf(!chromiumFound)(`the bundled 'Descargar justificantes' in real Chromium (${chromiumPath})`, () => {
    let portal: StandinPortal;
    beforeAll(async () => {
      portal = await startStandinPortal(portalOptions());
    });
    afterAll(async () => {
      await portal?.close();
    });
    const holder = createTestCertificate({ nif: '78816596N', givenName: 'ANA', surnames: 'MARTIN SANZ', keyType: 'ec' });
    const runJob = () =>
      job('descargar-justificantes', {
        inputs: { certificado: holder.fingerprint, desde: '2026-01-01', hasta: '2026-12-31', nif: '' },
        settingsOverrides: { baseUrl: portal.url, ignoreHTTPSErrors: true },
      });

    it('logs in to the stand-in portal with the certificate it is given and returns the six PDFs', async () => {
      const robot = startBuiltRobot();
      try {
        await robot.next('ready');
        robot.send({ type: 'start', job: runJob() });
        const request = (await robot.next('certificate-request')) as Extract<ChildMessage, { type: 'certificate-request' }>;
        expect(request.fingerprint).toBe(holder.fingerprint);
        robot.send({ type: 'certificate', requestId: request.requestId, pfx: createPkcs12(holder, 'clave'), passphrase: 'clave' });
        const { result } = (await robot.next('result')) as { result: RobotResult };
        expect(result).toMatchObject({ result: 'Success', usageUnits: 6, summary: { NIF: '78816596N', 'Justificantes descargados': 6 } });
        expect(result.outputs.map((file) => file.name)).toEqual(expect.arrayContaining([expect.stringMatching(/^78816596N-2026-\d{3}\.pdf$/)]));
        for (const file of result.outputs) expect(new TextDecoder().decode(file.data.subarray(0, 5))).toBe('%PDF-');
        const lines = robot.messages.filter((message) => message.type === 'log').map((message) => message.text);
        expect(lines[0]).toBe(`Abriendo el portal ${new URL(portal.url).origin}.`);
        expect(await robot.exited).toBe(0);
      } finally {
        robot.child.kill('SIGKILL');
      }
    }, 90_000);

    it('a certificate this PC refuses fails the run with that reason', async () => {
      const robot = startBuiltRobot();
      try {
        await robot.next('ready');
        robot.send({ type: 'prepare', robotsModule: null, chromiumPath, browser: true });
        await robot.next('prepared');
        robot.send({ type: 'start', job: runJob() });
        const request = (await robot.next('certificate-request')) as Extract<ChildMessage, { type: 'certificate-request' }>;
        robot.send({ type: 'certificate-refused', requestId: request.requestId, message: 'El certificado elegido no está en este dispositivo' });
        expect(await robot.next('failed')).toEqual({ type: 'failed', message: 'El certificado elegido no está en este dispositivo' });
        expect(await robot.exited).toBe(0);
      } finally {
        robot.child.kill('SIGKILL');
      }
    }, 90_000);
  });
});
