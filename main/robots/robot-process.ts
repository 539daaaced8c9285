/**
 * The child process of one desktop run (forked by runtime.ts): it asks for its job, loads the flow's
 * robot, runs it with the robot SDK (sdk/), writes the outputs it streams into the run's folder
 * (staged-outputs.ts), and posts its log lines, progress and result back. A crash,
 * a hang or a memory blow-up here ends this run only: the parent kills this process when it must.
 * When the parent goes away (the app or agent was killed) the IPC channel closes and this process
 * closes its browsers and exits, so no robot or Chromium is left behind.
 *
 * A spare (forked ahead by the runtime) is told to 'prepare' before it has a job: it loads the robots
 * and launches the browser without any context or certificate, then waits. It still runs one job only.
 */
import type { Browser } from 'playwright-core';
import type { RobotResult } from '#shared/flows/robot.ts';
import { MACRO_FLOW_PREFIX } from '#shared/macros/to-flow.ts';
import type { DesktopRobot } from '../../resources/flows/_lib/desktop.ts';
// Only the list (flow.json, settings.json and a loader per robot); each robot's code loads with its run.
// Imported by name, so the desktop build leaves out the server's robots listed beside it.
import { desktopFlows as appDesktopFlows } from '../../resources/flows/index.ts';
import type { ClientCertificate } from '../certificates/client-certificate.ts';
import type { ChildMessage, ParentMessage, RobotProcessJob } from './protocol.ts';
import { browserLaunchOptions, RobotBrowsers } from './sdk/browser.ts';
import { createDesktopRobotContext, mergedSettings } from './sdk/context.ts';
import { OutputStaging } from './staged-outputs.ts';
import type { DesktopFlowEntry } from './types.ts';

const send = process.send?.bind(process);
if (!send) throw new Error('robot-process se ejecuta solo como proceso hijo del entorno de robots');

const post = (message: ChildMessage) =>
  new Promise<void>((resolve) => {
    if (!process.connected) return resolve();
    send(message, undefined, {}, () => resolve());
  });

const abort = new AbortController();
const certificateRequests = new Map<number, { resolve(certificate: ClientCertificate): void; reject(error: Error): void }>();
let browsers: RobotBrowsers | null = null;
let started = false;
/** What a spare did ahead of its job; null for a process forked for a run. */
let prepared: { chromiumPath: string | null; browser: Promise<Browser> | null } | null = null;

process.on('message', (message: ParentMessage) => {
  switch (message.type) {
    case 'prepare':
      if (started || prepared) return;
      prepared = prepare(message.robotsModule, message.chromiumPath, message.browser);
      break;
    case 'start':
      if (started) return;
      started = true;
      void run(message.job);
      break;
    case 'abort':
      abort.abort();
      // A robot waiting on a page gets an error at once instead of waiting out its timeouts.
      void browsers?.closeAll();
      break;
    case 'certificate':
      certificateRequests.get(message.requestId)?.resolve({ pfx: Buffer.from(message.pfx), passphrase: message.passphrase });
      certificateRequests.delete(message.requestId);
      break;
    case 'certificate-refused':
      certificateRequests.get(message.requestId)?.reject(new Error(message.message));
      certificateRequests.delete(message.requestId);
      break;
  }
});

process.on('disconnect', () => {
  abort.abort();
  const closing = browsers?.closeAll() ?? closeBrowser(prepared?.browser ?? null);
  // Playwright kills its browser on exit anyway; closing first lets Chromium remove its profile.
  void Promise.race([closing, new Promise((resolve) => setTimeout(resolve, 2_000))]).then(() => process.exit(1));
});

let nextRequestId = 0;
function clientCertificate(fingerprint: string): Promise<ClientCertificate> {
  const requestId = (nextRequestId += 1);
  return new Promise((resolve, reject) => {
    certificateRequests.set(requestId, { resolve, reject });
    void post({ type: 'certificate-request', requestId, fingerprint });
  });
}

/**
 * A spare's head start: the robots module and every robot's code loaded (imports are cached, so the
 * run's own loads are instant), playwright-core imported and, with `browser`, the browser launched.
 * Failures are dropped here: the run meets them again where it would anyway, with its own message.
 */
function prepare(robotsModule: string | null, chromiumPath: string | null, browser: boolean): NonNullable<typeof prepared> {
  const robots = loadDesktopFlows(robotsModule).then((flows) => Promise.all(flows.map((flow) => flow.loadRobot())));
  const launched = browser ? import('playwright-core').then(({ chromium }) => chromium.launch(browserLaunchOptions(process.platform, chromiumPath, process.env))).then(warmUp) : null;
  launched?.catch(() => undefined);
  void Promise.allSettled([robots, launched]).then(() => post({ type: 'prepared' }));
  return { chromiumPath, browser: launched };
}

/**
 * Pays ahead what a browser's first context and page cost more than the next ones: Chromium starts its
 * first renderer (and keeps a spare one from then on), and Playwright, on its first context with client
 * certificates, makes itself an RSA server key (50-450 ms here). So the warm-up context presents a
 * throwaway self-signed certificate (made here, for an origin that cannot exist), opens a blank page and
 * is closed at once: no certificate of this PC is involved and nothing of it is kept. Measured on the
 * bench's real flow: first log line ~200 ms after start with it, ~400 ms with a blank context only.
 */
async function warmUp(browser: Browser): Promise<Browser> {
  const context = await browser.newContext({ clientCertificates: [{ origin: 'https://calentamiento.invalid', ...(await throwawayCertificate()) }] });
  await context.newPage();
  await context.close();
  return browser;
}

/** A self-signed certificate naming nobody, in memory only (node-forge is loaded here, in the spare, not by runs). */
async function throwawayCertificate(): Promise<{ cert: Buffer; key: Buffer }> {
  const { default: forge } = await import('node-forge');
  const keys = forge.pki.rsa.generateKeyPair({ bits: 2048 });
  const certificate = forge.pki.createCertificate();
  const name = [{ name: 'commonName', value: 'calentamiento.invalid' }];
  certificate.publicKey = keys.publicKey;
  certificate.serialNumber = '01';
  certificate.validity.notBefore = new Date();
  certificate.validity.notAfter = new Date(Date.now() + 86_400_000);
  certificate.setSubject(name);
  certificate.setIssuer(name);
  certificate.sign(keys.privateKey, forge.md.sha256.create());
  return { cert: Buffer.from(forge.pki.certificateToPem(certificate)), key: Buffer.from(forge.pki.privateKeyToPem(keys.privateKey)) };
}

function closeBrowser(browser: Promise<Browser> | null): Promise<void> {
  return browser ? browser.then((opened) => opened.close()).catch(() => undefined) : Promise.resolve();
}

async function run(job: RobotProcessJob): Promise<void> {
  let ending: ChildMessage;
  // The spare's browser fits this job unless the job names another browser (it never does today).
  const launched = prepared?.chromiumPath === job.chromiumPath ? prepared.browser : null;
  if (launched === null) void closeBrowser(prepared?.browser ?? null);
  try {
    const { robot, settings } = await loadRobot(job);
    browsers = new RobotBrowsers({
      launchOptions: browserLaunchOptions(process.platform, job.chromiumPath, process.env),
      inputs: job.inputs,
      ignoreHTTPSErrors: settings['ignoreHTTPSErrors'] === true,
      clientCertificate,
      ...(launched ? { launched } : {}),
    });
    const staging = job.outputFolder === undefined ? null : new OutputStaging(job.outputFolder, job.runId);
    const context = createDesktopRobotContext(
      { inputs: job.inputs, files: job.files, settings, startedAt: new Date(job.startedAt), signal: abort.signal, browsers, ...(staging && { output: (name: string) => staging.open(name) }) },
      {
        log: (level, text) => void post({ type: 'log', level, text }),
        progress: (successful, total) => void post({ type: 'progress', successful, total }),
      },
    );
    void post({ type: 'robot-started' });
    const result: RobotResult = await robot.run(context);
    ending = { type: 'result', result, streamed: staging?.closed() ?? [] };
  } catch (error) {
    ending = { type: 'failed', message: error instanceof Error ? error.message : String(error) };
  }
  // Chromium is gone before the parent hears the run has ended (a spare's too, if the robot never got to it).
  await (browsers?.closeAll() ?? closeBrowser(launched));
  try {
    await post(ending);
  } catch {
    // Not structured-cloneable (a function or a class instance in the result): nothing usable to send.
    await post({ type: 'failed', message: 'El robot no ha devuelto un resultado válido' });
  }
  process.exit(0);
}

/**
 * The job's robot and settings: the macro player for a macro flow ('macro-<id>', loaded on demand so
 * the desktop build keeps it in a chunk of its own), else the installed flow of that id.
 */
async function loadRobot(job: RobotProcessJob): Promise<{ robot: DesktopRobot; settings: Readonly<Record<string, unknown>> }> {
  if (job.flowId.startsWith(MACRO_FLOW_PREFIX)) {
    const [{ macroRobot }, { macroSettings }] = await Promise.all([import('../macros/robot.ts'), import('../macros/host.ts')]);
    return { robot: macroRobot, settings: mergedSettings(macroSettings(process.env), job.settingsOverrides) };
  }
  const flow = (await loadDesktopFlows(job.robotsModule)).find((candidate) => candidate.id === job.flowId);
  if (!flow) throw new Error(`El robot ${job.flowId} no está instalado en este equipo`);
  return { robot: await flow.loadRobot(), settings: mergedSettings(flow.settings, job.settingsOverrides) };
}

/** The `desktopFlows` of the robots module: the app's own (resources/flows) or a test's. */
async function loadDesktopFlows(robotsModule: string | null): Promise<readonly DesktopFlowEntry[]> {
  if (robotsModule === null) return appDesktopFlows;
  const flows = ((await import(robotsModule)) as { desktopFlows?: unknown }).desktopFlows;
  if (!Array.isArray(flows)) throw new Error('Esta instalación no tiene robots de escritorio');
  return flows as readonly DesktopFlowEntry[];
}

void post({ type: 'ready' });
