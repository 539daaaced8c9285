/**
 * The runtime with real child processes and the test robots (testing/robots.ts): each way a run can
 * end ends the run the right way, its process is gone, and the next run is fine.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RobotLogLevel } from '#shared/flows/robot.ts';
import type { CertificateSource } from '../bridge/context.ts';
import { createPkcs12, createTestCertificate } from '../certificates/testing/spanish-certificates.ts';
import { NOT_CHOSEN_CERTIFICATE_MESSAGE, OUT_OF_MEMORY_MESSAGE, createRobotRuntime, type RobotRuntimeHost, type RobotRuntimeOptions } from './runtime.ts';
import { measureRobotLaunch } from './bench.ts';
import type { RobotJob, RobotMilestone } from './types.ts';

const robotsModule = new URL('./testing/robots.ts', import.meta.url);
let root: string;
let runs = 0;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'robot-runtime-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const noCertificates: CertificateSource = {
  list: async () => ({ certificates: [], problems: [], folder: null }),
  setFolder: async () => null,
  unlock: async () => 0,
  clientCertificate: async () => {
    throw new Error('El certificado elegido no está en este dispositivo');
  },
};

function runtime(options: Partial<RobotRuntimeOptions> = {}) {
  return createRobotRuntime({ certificates: noCertificates, robotsModule, stopGraceMs: 1_000, memoryMb: 256, ...options });
}

function job(flowId: string, overrides: Partial<RobotJob> = {}): RobotJob {
  runs += 1;
  return {
    runId: `run-${runs}`,
    flowId,
    inputs: {},
    timeLimitSeconds: 30,
    startedAt: '2026-11-23T08:00:00.000Z',
    outputFolder: join(root, `run-${runs}`),
    ...overrides,
  };
}

/** Starts a run and records what it reports. */
function watch(robots: ReturnType<typeof runtime>, robotJob: RobotJob) {
  const logs: Array<[RobotLogLevel, string]> = [];
  const progress: Array<[number, number]> = [];
  const milestones: Array<[RobotMilestone, number]> = [];
  const robot = robots.start(robotJob, {
    log: (level, text) => logs.push([level, text]),
    progress: (successful, total) => progress.push([successful, total]),
    timing: (milestone, elapsedMs) => milestones.push([milestone, elapsedMs]),
  });
  const firstLog = new Promise<string>((resolve) => {
    const check = setInterval(() => {
      const line = logs[0];
      if (line) {
        clearInterval(check);
        resolve(line[1]);
      }
    }, 10);
  });
  return { robot, logs, progress, milestones, firstLog };
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const pidIn = (line: string) => Number(/pid (\d+)/.exec(line)?.[1]);

describe('robot runtime', () => {
  it('streams log lines and progress, and writes the outputs under unique normalised names', async () => {
    const robots = runtime({ settingsOverrides: { 'escribe-salidas': { destino: 'carpeta de la oficina' } } });
    const run = watch(robots, job('escribe-salidas', { inputs: { nombre: 'Ana' } }));
    expect(robots.running()).toBe(1);
    const outcome = await run.robot.outcome;

    expect(outcome).toEqual({
      kind: 'result',
      result: 'Success',
      usageUnits: 2,
      summary: { filas: 2, inicio: '2026-11-23T08:00:00.000Z' },
      outputFolder: join(root, `run-${runs}`),
      outputFileNames: ['informe marzo.txt', 'informe marzo (2).txt'],
    });
    expect(run.logs).toEqual([
      ['info', 'Hola, Ana'],
      ['warn', 'Destino: carpeta de la oficina'],
    ]);
    expect(run.progress).toEqual([[1, 2], [2, 2]]);
    expect(await readFile(join(root, `run-${runs}`, 'informe marzo.txt'), 'utf8')).toBe('primero');
    expect(await readFile(join(root, `run-${runs}`, 'informe marzo (2).txt'), 'utf8')).toBe('segundo');
    expect(robots.running()).toBe(0);

    // The bench's milestones, in order, each after the one before.
    expect(run.milestones.map(([milestone]) => milestone)).toEqual(['process-ready', 'robot-started', 'first-log', 'finished']);
    const times = run.milestones.map(([, elapsedMs]) => elapsedMs);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it("gives the robot each FileUpload input's files, byte for byte, by input key", async () => {
    const everyByte = Uint8Array.from({ length: 256 }, (_, index) => index);
    const pdf = new TextEncoder().encode('%PDF-1.4 justificante de marzo');
    const robotJob = job('lee-archivos', { inputs: { nota: 'urgente' }, files: { documentos: [{ name: 'bytes.bin', data: everyByte }, { name: 'marzo.pdf', data: pdf }], anexo: [] } });
    const run = watch(runtime(), robotJob);
    const outcome = await run.robot.outcome;
    expect(outcome).toMatchObject({ kind: 'result', usageUnits: 2, summary: { entradas: 'nota' }, outputFileNames: ['copia de bytes.bin', 'copia de marzo.pdf'] });
    expect(run.logs).toEqual([
      ['info', 'documentos: bytes.bin (256 bytes)'],
      ['info', 'documentos: marzo.pdf (30 bytes)'],
    ]);
    expect(new Uint8Array(await readFile(join(robotJob.outputFolder, 'copia de bytes.bin')))).toEqual(everyByte);
    expect(await readFile(join(robotJob.outputFolder, 'copia de marzo.pdf'), 'utf8')).toBe('%PDF-1.4 justificante de marzo');
  });

  it('never writes over a file already in the run folder', async () => {
    const robotJob = job('escribe-salidas', { inputs: { nombre: 'Ana' } });
    const robots = runtime();
    await watch(robots, robotJob).robot.outcome; // the folder now holds the first run's files
    const outcome = await watch(robots, robotJob).robot.outcome;
    expect(outcome.kind === 'result' && outcome.outputFileNames).toEqual(['informe marzo (3).txt', 'informe marzo (4).txt']);
    expect((await readdir(robotJob.outputFolder)).sort()).toEqual(['informe marzo (2).txt', 'informe marzo (3).txt', 'informe marzo (4).txt', 'informe marzo.txt']);
    expect(await readFile(join(robotJob.outputFolder, 'informe marzo.txt'), 'utf8')).toBe('primero');
  });

  it('a robot that throws fails the run with its message; the next run is fine', async () => {
    const robots = runtime();
    const failing = watch(robots, job('lanza-error'));
    await expect(failing.robot.outcome).resolves.toEqual({ kind: 'failed', message: 'El portal no responde' });
    expect(failing.logs).toEqual([['info', 'Entrando en el portal']]);
    await expect(watch(robots, job('escribe-salidas')).robot.outcome).resolves.toMatchObject({ kind: 'result', result: 'Success' });
  });

  it('an unknown flow, or a result that is not one, fails the run in Spanish', async () => {
    const robots = runtime();
    await expect(watch(robots, job('no-existe')).robot.outcome).resolves.toEqual({ kind: 'failed', message: 'El robot no-existe no está instalado en este equipo' });
    await expect(watch(robots, job('resultado-raro')).robot.outcome).resolves.toEqual({ kind: 'failed', message: 'El robot no ha devuelto un resultado válido' });
  });

  it('the time limit aborts a hanging robot: timeout as soon as it gives up, well before the grace period', async () => {
    const robots = runtime({ stopGraceMs: 10_000 });
    const started = Date.now();
    const run = watch(robots, job('se-cuelga', { timeLimitSeconds: 1 }));
    await expect(run.robot.outcome).resolves.toEqual({ kind: 'timeout' });
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(run.logs).toEqual([['info', 'Esperando al portal']]);
  });

  it('a robot that ignores the stop is killed after the grace period: stopped by the user, its process gone', async () => {
    const robots = runtime({ stopGraceMs: 500 });
    const run = watch(robots, job('ignora-parada'));
    const pid = pidIn(await run.firstLog);
    expect(isAlive(pid)).toBe(true);
    run.robot.stop('user');
    await expect(run.robot.outcome).resolves.toEqual({ kind: 'stopped', by: 'user' });
    expect(isAlive(pid)).toBe(false);
    expect(robots.running()).toBe(0);
  });

  it('past its time limit, a robot that ignores the abort is killed: timeout', async () => {
    const robots = runtime({ stopGraceMs: 300 });
    const run = watch(robots, job('ignora-parada', { timeLimitSeconds: 1 }));
    const pid = pidIn(await run.firstLog);
    await expect(run.robot.outcome).resolves.toEqual({ kind: 'timeout' });
    expect(isAlive(pid)).toBe(false);
  });

  it('a robot that blows its heap crashes alone with a clear message; the next run is fine', async () => {
    const robots = runtime({ memoryMb: 64 });
    await expect(watch(robots, job('agota-memoria')).robot.outcome).resolves.toEqual({ kind: 'crashed', message: OUT_OF_MEMORY_MESSAGE });
    await expect(watch(robots, job('escribe-salidas')).robot.outcome).resolves.toMatchObject({ kind: 'result' });
  }, 60_000);

  it('a stop by the device after the robot has returned changes nothing', async () => {
    const robots = runtime();
    const run = watch(robots, job('escribe-salidas'));
    const outcome = await run.robot.outcome;
    run.robot.stop('device');
    expect(outcome.kind).toBe('result');
  });

  it('runs side by side, each in its own process', async () => {
    const robots = runtime({ stopGraceMs: 300 });
    const first = watch(robots, job('ignora-parada'));
    const second = watch(robots, job('ignora-parada'));
    const [firstPid, secondPid] = [pidIn(await first.firstLog), pidIn(await second.firstLog)];
    expect(firstPid).not.toBe(secondPid);
    expect(firstPid).not.toBe(process.pid);
    expect(robots.running()).toBe(2);
    first.robot.stop('device');
    await expect(first.robot.outcome).resolves.toEqual({ kind: 'stopped', by: 'device' });
    expect(isAlive(secondPid)).toBe(true);
    second.robot.stop('user');
    await second.robot.outcome;
  });
});

describe('a certificate is only given for the run\'s own inputs', () => {
  it('a certificate the robot was not given is refused before any store is asked', async () => {
    let asked = 0;
    const robots = runtime({ certificates: { ...noCertificates, clientCertificate: async () => ((asked += 1), { pfx: Buffer.alloc(0), passphrase: '' }) } });
    // The portal robot asks for inputs.certificado; here it holds no fingerprint at all.
    await expect(watch(robots, job('portal', { inputs: {} })).robot.outcome).resolves.toEqual({ kind: 'failed', message: 'No se ha elegido un certificado en la entrada «certificado»' });
    expect(asked).toBe(0);
    expect(NOT_CHOSEN_CERTIFICATE_MESSAGE).toContain('certificado elegido');
  });
});

describe('when the agent dies (kill -9)', () => {
  /** The agent stand-in as its own process, with its event lines. */
  function startAgent(flowId: string, spare?: 'spare' | 'spare-browser') {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const agent = spawn(process.execPath, ['--import', tsx, new URL('./testing/agent-stand-in.ts', import.meta.url).pathname, flowId, ...(spare ? [spare] : [])], { stdio: ['ignore', 'pipe', 'inherit'] });
    let buffered = '';
    agent.stdout.on('data', (chunk: Buffer) => (buffered += chunk.toString('utf8')));
    const waitFor = <T>(read: (output: string) => T | null) =>
      new Promise<T>((resolve, reject) => {
        const check = () => {
          const value = read(buffered);
          if (value === null) return false;
          agent.stdout.off('data', check);
          resolve(value);
          return true;
        };
        if (check()) return;
        agent.stdout.on('data', check);
        agent.once('exit', () => reject(new Error(`the agent stand-in ended early: ${buffered}`)));
      });
    const robotPid = waitFor((output) => pidIn(output) || null);
    /** The spare started after the run's first line, once prepared. */
    const sparePid = () => waitFor((output) => Number(/"event":"spare","pid":(\d+)/.exec(output)?.[1]) || null);
    return { agent, robotPid, sparePid };
  }

  const gone = async (pids: number[], withinMs: number) => {
    const deadline = Date.now() + withinMs;
    while (pids.some(isAlive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    return pids.filter(isAlive);
  };

  it('its robot process notices the closed channel and exits', async () => {
    const { agent, robotPid } = startAgent('ignora-parada');
    const pid = await robotPid;
    expect(isAlive(pid)).toBe(true);
    agent.kill('SIGKILL');
    expect(await gone([pid], 10_000)).toEqual([]);
  }, 60_000);

  it('a spare waiting for its run dies with it, and so does the browser it launched ahead', async () => {
    const { agent, robotPid, sparePid } = startAgent('ignora-parada', chromiumFound ? 'spare-browser' : 'spare');
    try {
      const pids = [await robotPid, await sparePid()];
      const browser = chromiumFound ? descendantsOf(pids[1] as number) : [];
      if (chromiumFound) expect(browser.length).toBeGreaterThan(0);
      agent.kill('SIGKILL');
      expect(await gone([...pids, ...browser].filter((pid) => !isZombie(pid)), 15_000)).toEqual([]);
    } finally {
      agent.kill('SIGKILL');
    }
  }, 90_000);
});

describe('measureRobotLaunch (the bench hook)', () => {
  it('times start -> first log line and the milestones around it', async () => {
    const timings = await measureRobotLaunch(runtime(), job('escribe-salidas'));
    expect(timings.outcome.kind).toBe('result');
    expect(timings.firstLogLineMs).toBe(timings.milestones['first-log']);
    expect(timings.firstLogLineMs).toBeGreaterThanOrEqual(timings.milestones['robot-started'] ?? Infinity);
    expect(timings.milestones.finished).toBeGreaterThanOrEqual(timings.firstLogLineMs ?? Infinity);
  });

  it('a robot that logs nothing has no first line', async () => {
    const timings = await measureRobotLaunch(runtime(), job('resultado-raro'));
    expect(timings.firstLogLineMs).toBeNull();
    expect(timings.milestones['process-ready']).toBeGreaterThan(0);
  });
});

describe('a spare robot process (forked ahead of the next run)', () => {
  /** Runs a robot and returns the pid of the process it ran in (it logs it) with the outcome. */
  async function pidOfRun(robots: RobotRuntimeHost, flowId = 'dice-pid') {
    const run = watch(robots, job(flowId));
    const outcome = await run.robot.outcome;
    return { pid: pidIn(run.logs[0]?.[1] ?? ''), outcome, milestones: run.milestones };
  }

  it('the next run takes the spare, which is replaced after that run; close() ends the spare', async () => {
    const robots = runtime({ spare: { browser: false } });
    try {
      const spare = await robots.warm();
      expect(spare).toEqual(expect.any(Number));
      const first = await pidOfRun(robots);
      expect(first.outcome).toMatchObject({ kind: 'result', result: 'Success' });
      expect(first.pid).toBe(spare);
      // It was ready and waiting: the job went to it at once.
      expect(first.milestones.find(([milestone]) => milestone === 'process-ready')?.[1]).toBeLessThan(50);

      const replacement = await robots.warm();
      expect(replacement).toEqual(expect.any(Number));
      expect(replacement).not.toBe(spare);
      expect(await goneWithin([spare as number], 5_000)).toEqual([]);
      expect((await pidOfRun(robots)).pid).toBe(replacement);
    } finally {
      robots.close();
    }
    const last = await robots.warm();
    expect(last).toBeNull();
  });

  it('never runs two jobs: two runs started together get two processes, the spare serves one', async () => {
    const robots = runtime({ spare: { browser: false } });
    try {
      const spare = await robots.warm();
      const [first, second] = await Promise.all([pidOfRun(robots), pidOfRun(robots)]);
      expect(first.outcome.kind).toBe('result');
      expect(second.outcome.kind).toBe('result');
      expect(first.pid).toBe(spare);
      expect(second.pid).not.toBe(spare);
      expect(second.pid).toEqual(expect.any(Number));
    } finally {
      robots.close();
    }
  });

  it('a spare that died while waiting does not fail the next run: it starts in a fresh process', async () => {
    const robots = runtime({ spare: { browser: false } });
    try {
      const spare = (await robots.warm()) as number;
      process.kill(spare, 'SIGKILL');
      expect(await goneWithin([spare], 5_000)).toEqual([]);
      const run = await pidOfRun(robots, 'escribe-salidas');
      expect(run.outcome).toMatchObject({ kind: 'result', result: 'Success', usageUnits: 2 });
      // And a new spare is ready for the one after.
      expect(await robots.warm()).toEqual(expect.any(Number));
    } finally {
      robots.close();
    }
  });

  it('a spare that dies as it is handed the run: the run starts again in a fresh process, once', async () => {
    const robots = runtime({ spare: { browser: false } });
    try {
      const spare = (await robots.warm()) as number;
      const run = watch(robots, job('dice-pid'));
      process.kill(spare, 'SIGKILL');
      await expect(run.robot.outcome).resolves.toMatchObject({ kind: 'result', result: 'Success' });
      expect(run.logs).toHaveLength(1);
      expect(pidIn(run.logs[0]?.[1] ?? '')).not.toBe(spare);
    } finally {
      robots.close();
    }
  });

  it.skipIf(!chromiumFound)('with its browser launched ahead: the run opens its page in that browser, and only the run asks for the certificate', async () => {
    const asked: string[] = [];
    const certificate = createTestCertificate({ keyType: 'ec' });
    const robots = runtime({
      chromiumPath,
      spare: { browser: true },
      certificates: { ...noCertificates, clientCertificate: async (fingerprint) => (asked.push(fingerprint), { pfx: Buffer.from(createPkcs12(certificate, 'clave')), passphrase: 'clave' }) },
    });
    try {
      const spare = (await robots.warm()) as number;
      const browserBefore = childrenOf(spare);
      expect(browserBefore.length).toBeGreaterThan(0);
      expect(asked).toEqual([]);
      const run = watch(robots, job('navegador-colgado', { inputs: { certificado: certificate.fingerprint } }));
      expect(pidIn(await run.firstLog)).toBe(spare);
      // No second browser was launched for the run: its page is in the one started ahead.
      expect(childrenOf(spare)).toEqual(browserBefore);
      expect(asked).toEqual([certificate.fingerprint]);
      run.robot.stop('user');
      await expect(run.robot.outcome).resolves.toEqual({ kind: 'stopped', by: 'user' });
    } finally {
      robots.close();
    }
  }, 60_000);
});

const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const chromiumFound = existsSync(chromiumPath);

/** Zombies (exited, waiting for a parent that does not reap them, as a container's init may not) count as gone. */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false;
  }
}

async function goneWithin(pids: number[], withinMs: number): Promise<number[]> {
  const running = () => pids.filter((pid) => isAlive(pid) && !isZombie(pid));
  const deadline = Date.now() + withinMs;
  while (running().length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  return running();
}

function processTable(): Array<[number, number]> {
  return execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
}

/** The processes `pid` started itself (a robot process: its browser). */
function childrenOf(pid: number): number[] {
  return processTable()
    .filter(([, parent]) => parent === pid)
    .map(([child]) => child)
    .sort((a, b) => a - b);
}

/** Every process below `pid` (a browser and its helpers). */
function descendantsOf(pid: number): number[] {
  const rows = processTable();
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of rows) {
      if (ppid !== parent) continue;
      found.push(child);
      walk(child);
    }
  };
  walk(pid);
  return found;
}
