/**
 * The child process of one desktop run (forked by runtime.ts): it asks for its job, loads the flow's
 * robot, runs it with the robot SDK (sdk/), and posts its log lines, progress and result back. A crash,
 * a hang or a memory blow-up here ends this run only: the parent kills this process when it must.
 * When the parent goes away (the app or agent was killed) the IPC channel closes and this process
 * closes its browsers and exits, so no robot or Chromium is left behind.
 */
import type { RobotResult } from '#shared/flows/robot.ts';
import type { ClientCertificate } from '../certificates/client-certificate.ts';
import type { ChildMessage, ParentMessage, RobotProcessJob } from './protocol.ts';
import { browserLaunchOptions, RobotBrowsers } from './sdk/browser.ts';
import { createDesktopRobotContext, mergedSettings } from './sdk/context.ts';
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

process.on('message', (message: ParentMessage) => {
  switch (message.type) {
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
  const closing = browsers?.closeAll() ?? Promise.resolve();
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

async function run(job: RobotProcessJob): Promise<void> {
  let ending: ChildMessage;
  try {
    const flow = (await loadDesktopFlows(job.robotsModule)).find((candidate) => candidate.id === job.flowId);
    if (!flow) throw new Error(`El robot ${job.flowId} no está instalado en este equipo`);
    const robot = await flow.loadRobot();
    const settings = mergedSettings(flow.settings, job.settingsOverrides);
    browsers = new RobotBrowsers({
      launchOptions: browserLaunchOptions(process.platform, job.chromiumPath, process.env),
      inputs: job.inputs,
      ignoreHTTPSErrors: settings['ignoreHTTPSErrors'] === true,
      clientCertificate,
    });
    const context = createDesktopRobotContext(
      { inputs: job.inputs, files: job.files, settings, startedAt: new Date(job.startedAt), signal: abort.signal, browsers },
      {
        log: (level, text) => void post({ type: 'log', level, text }),
        progress: (successful, total) => void post({ type: 'progress', successful, total }),
      },
    );
    void post({ type: 'robot-started' });
    const result: RobotResult = await robot.run(context);
    ending = { type: 'result', result };
  } catch (error) {
    ending = { type: 'failed', message: error instanceof Error ? error.message : String(error) };
  }
  // Chromium is gone before the parent hears the run has ended.
  await browsers?.closeAll();
  try {
    await post(ending);
  } catch {
    // Not structured-cloneable (a function or a class instance in the result): nothing usable to send.
    await post({ type: 'failed', message: 'El robot no ha devuelto un resultado válido' });
  }
  process.exit(0);
}

/** The `desktopFlows` of the robots module: the app's own (resources/flows) or a test's. */
async function loadDesktopFlows(robotsModule: string | null): Promise<readonly DesktopFlowEntry[]> {
  const loaded: unknown = robotsModule === null ? await import('../../resources/flows/index.ts') : await import(robotsModule);
  const flows = (loaded as { desktopFlows?: unknown }).desktopFlows;
  if (!Array.isArray(flows)) throw new Error('Esta instalación no tiene robots de escritorio');
  return flows as readonly DesktopFlowEntry[];
}

void post({ type: 'ready' });
