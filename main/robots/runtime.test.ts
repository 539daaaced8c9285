/**
 * The runtime with real child processes and the test robots (testing/robots.ts): each way a run can
 * end ends the run the right way, its process is gone, and the next run is fine. The spare process:
 * runtime.spare.test.ts; the agent killed under its robots: runtime.kill.test.ts.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { measureRobotLaunch } from './bench.ts';
import { NOT_CHOSEN_CERTIFICATE_MESSAGE, OUT_OF_MEMORY_MESSAGE } from './runtime.ts';
import { isAlive, job, noCertificates, pidIn, runtime, useRunFolders, watch } from './testing/runtime-harness.ts';

useRunFolders();

describe('robot runtime', () => {
  it('streams log lines and progress, and writes the outputs under unique normalised names', async () => {
    const robots = runtime({ settingsOverrides: { 'escribe-salidas': { destino: 'carpeta de la oficina' } } });
    const robotJob = job('escribe-salidas', { inputs: { nombre: 'Ana' } });
    const run = watch(robots, robotJob);
    expect(robots.running()).toBe(1);
    const outcome = await run.robot.outcome;

    expect(outcome).toEqual({
      kind: 'result',
      result: 'Success',
      usageUnits: 2,
      summary: { filas: 2, inicio: '2026-11-23T08:00:00.000Z' },
      outputFolder: robotJob.outputFolder,
      outputFileNames: ['informe marzo.txt', 'informe marzo (2).txt'],
    });
    expect(run.logs).toEqual([
      ['info', 'Hola, Ana'],
      ['warn', 'Destino: carpeta de la oficina'],
    ]);
    expect(run.progress).toEqual([[1, 2], [2, 2]]);
    expect(await readFile(join(robotJob.outputFolder, 'informe marzo.txt'), 'utf8')).toBe('primero');
    expect(await readFile(join(robotJob.outputFolder, 'informe marzo (2).txt'), 'utf8')).toBe('segundo');
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
    // A grace period far beyond the test's time limit: had the runtime waited for it (or killed the
    // robot instead of letting it give up), the test would time out. No wall-clock assertion, which a
    // loaded machine once broke (11 s against 8).
    const robots = runtime({ stopGraceMs: 10 * 60_000 });
    const run = watch(robots, job('se-cuelga', { timeLimitSeconds: 8 }));
    await expect(run.robot.outcome).resolves.toEqual({ kind: 'timeout' });
    expect(run.logs).toEqual([['info', 'Esperando al portal']]);
    // Starting the robot's process took over 20 s once in the full suite on 2 cores; the grace period is 10 minutes.
  }, 60_000);

  it('a time limit that runs out while the process is still starting ends the run at once, not after the grace period', async () => {
    // 5 ms: no process is ready that soon, so the limit always comes before the job is sent. On a
    // loaded CI machine the 1 s limit above did the same, and the run then waited out its 10-minute grace.
    const robots = runtime({ stopGraceMs: 10 * 60_000 });
    const run = watch(robots, job('se-cuelga', { timeLimitSeconds: 0.005 }));
    await expect(run.robot.outcome).resolves.toEqual({ kind: 'timeout' });
    expect(run.logs).toEqual([]);
    expect(robots.running()).toBe(0);
  }, 30_000);

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
    const run = watch(robots, job('ignora-parada', { timeLimitSeconds: 8 }));
    const pid = pidIn(await run.firstLog);
    await expect(run.robot.outcome).resolves.toEqual({ kind: 'timeout' });
    expect(isAlive(pid)).toBe(false);
    // As the hanging robot's test above: 60 s for its process to start under the full suite's load.
  }, 60_000);

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
