import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startA3Importer } from '../../standins/a3-importer/importer.ts';
import type { RobotJob, RobotRuntime } from '../robots/types.ts';
import { CERTIFICATE_NEEDED_MESSAGE, NO_A3_PENDING_MESSAGE, NO_RED_PENDING_MESSAGE, withAltasLocalProcesses } from './local-processes.ts';
import { testAltasDesktop } from './testing/desktop-context.ts';
import { fakeSubmission, startFakeAltasServer, type FakeSubmission } from './testing/fake-altas-server.ts';
import { fakeRegistrar, REFUSED_MESSAGE, type FakeRegistrar } from './testing/fake-registrar.ts';
import { a3AltaRow, redAltaRecord } from './testing/fixtures.ts';

const FINGERPRINT = 'ab'.repeat(32);
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The inner runtime: records the jobs that reached it. */
function innerRuntime(): RobotRuntime & { jobs: RobotJob[] } {
  const jobs: RobotJob[] = [];
  return {
    jobs,
    start: (job) => {
      jobs.push(job);
      return { runId: job.runId, outcome: Promise.resolve({ kind: 'result', result: 'Success', usageUnits: 1, outputFolder: job.outputFolder, outputFileNames: [] }), stop: () => undefined };
    },
    running: () => 0,
  };
}

async function world(submissions: FakeSubmission[], registrar: FakeRegistrar = fakeRegistrar()) {
  const server = await startFakeAltasServer(submissions);
  const folder = await mkdtemp(join(tmpdir(), 'altas-run-'));
  cleanups.push(() => server.close(), () => rm(folder, { recursive: true, force: true }));
  const altas = testAltasDesktop(server, registrar, join(folder, 'a3'));
  const inner = innerRuntime();
  const runtime = withAltasLocalProcesses(inner, { altas: () => altas });
  const lines: string[] = [];
  const progress: [number, number][] = [];
  const start = (localProcess: string, inputs: Record<string, unknown> = {}) =>
    runtime.start(
      { runId: 'run-1', flowId: 'altas-automaticas-red', inputs, timeLimitSeconds: 900, startedAt: new Date().toISOString(), outputFolder: join(folder, 'out'), localProcess },
      { log: (level, text) => lines.push(`${level}: ${text}`), progress: (done, total) => progress.push([done, total]) },
    );
  return { server, folder, inner, runtime, lines, progress, start };
}

describe('withAltasLocalProcesses', () => {
  it('sync-altas registers the pending altas in RED with the schedule’s certificate: 1 unit per registration, a line per refusal', async () => {
    const registrar = fakeRegistrar(['289999999999']);
    const { server, start, lines, progress } = await world(
      [fakeSubmission('s1'), fakeSubmission('s2', { record: redAltaRecord('s2', { nafNumber: '9999999999' }) }), fakeSubmission('s3', { redAt: '2026-11-25T10:00:00.000Z' })],
      registrar,
    );
    const outcome = await start('sync-altas', { certificado: FINGERPRINT }).outcome;
    expect(outcome).toMatchObject({ kind: 'result', result: 'Success', usageUnits: 1, summary: { registradas: 1, errores: 1 } });
    expect(registrar.calls).toEqual([{ kind: 'register', submissionIds: ['s1', 's2'], certificate: FINGERPRINT }]);
    expect(lines).toContain(`error: ${server.submissions[1]!.title}: ${REFUSED_MESSAGE}`);
    expect(progress).toEqual([[1, 2]]);
  });

  it('nothing pending ends well without cost; sync-altas without a certificate it fails with the reason; all refused is a Fail', async () => {
    const none = await world([fakeSubmission('s1', { redAt: '2026-11-25T10:00:00.000Z', a3At: '2026-11-25T11:00:00.000Z' })]);
    expect(await none.start('sync-altas', { certificado: FINGERPRINT }).outcome).toMatchObject({ kind: 'result', result: 'Success', usageUnits: 0 });
    expect(await none.start('sync-altas-a3').outcome).toMatchObject({ kind: 'result', result: 'Success', usageUnits: 0 });
    expect(none.lines).toEqual([`info: ${NO_RED_PENDING_MESSAGE}`, `info: ${NO_A3_PENDING_MESSAGE}`]);
    expect(await none.start('sync-altas', {}).outcome).toEqual({ kind: 'failed', message: CERTIFICATE_NEEDED_MESSAGE });

    const refused = await world([fakeSubmission('s1', { complete: false })]);
    expect(await refused.start('sync-altas', { certificado: FINGERPRINT }).outcome).toMatchObject({ kind: 'result', result: 'Fail', usageUnits: 0, summary: { registradas: 0, errores: 1 } });
  });

  it('sync-altas-a3 imports the RED-registered altas into A3: 1 unit per alta synced', async () => {
    const registered = '2026-11-25T10:00:00.000Z';
    const { folder, server, start, lines } = await world([
      fakeSubmission('s1', { redAt: registered }),
      fakeSubmission('s2', { redAt: registered, row: a3AltaRow('s2', { ocupacion: '' }) }),
      fakeSubmission('s3'),
    ]);
    const importer = startA3Importer({ folder: join(folder, 'a3'), companies: [], pollMs: 20 });
    cleanups.push(() => importer.close());
    const outcome = await start('sync-altas-a3').outcome;
    expect(outcome).toMatchObject({ kind: 'result', result: 'Success', usageUnits: 1, summary: { sincronizadas: 1, errores: 1 } });
    expect(lines).toContain(`error: A3 no ha importado el alta de ${server.submissions[1]!.title}: Falta la ocupación (CNO): es obligatoria para un alta (MA).`);
    expect(lines).toContain('warn: A3 ha importado 1 de 2 altas.');
    expect(server.submissions.map((each) => each.a3At !== null)).toEqual([true, false, false]);
    // The refused one is tried again and refused again: nothing done is a Fail, without cost.
    expect(await start('sync-altas-a3').outcome).toMatchObject({ kind: 'result', result: 'Fail', usageUnits: 0, summary: { sincronizadas: 0, errores: 1 } });
  });

  it('takes the altas the screen chose (hidden input) and its channel; the summary names the AFI file and the first refusal', async () => {
    const registrar = fakeRegistrar(['289999999999']);
    const { server, start } = await world(
      [fakeSubmission('s1'), fakeSubmission('s2', { record: redAltaRecord('s2', { nafNumber: '9999999999' }) }), fakeSubmission('s3')],
      registrar,
    );
    // Only s2 and s3, as chosen (the run of the screen's button, issue 44, 5); s1 stays pending.
    const chosen = await start('sync-altas', { certificado: FINGERPRINT, altas: 's2, s3,s3', canal: 'red-online' }).outcome;
    expect(registrar.calls).toEqual([{ kind: 'register', submissionIds: ['s2', 's3'], certificate: FINGERPRINT }]);
    expect(chosen).toMatchObject({ kind: 'result', result: 'Success', usageUnits: 1, summary: { registradas: 1, errores: 1, 'primer error': REFUSED_MESSAGE } });
    expect(server.submissions.map((each) => each.redAt !== null)).toEqual([false, false, true]);

    const afi = await start('sync-altas', { certificado: FINGERPRINT, altas: 's1', canal: 'afi' }).outcome;
    expect(registrar.calls.at(-1)).toEqual({ kind: 'afi', submissionIds: ['s1'], certificate: null });
    expect(afi).toMatchObject({ kind: 'result', result: 'Success', usageUnits: 0, summary: { registradas: 0, errores: 0, 'fichero AFI': 'AFI_20261126_1.AFI' } });
  });

  it('sync-altas-a3 takes the chosen altas only', async () => {
    const registered = '2026-11-25T10:00:00.000Z';
    const { folder, server, start } = await world([fakeSubmission('s1', { redAt: registered }), fakeSubmission('s2', { redAt: registered })]);
    const importer = startA3Importer({ folder: join(folder, 'a3'), companies: [], pollMs: 20 });
    cleanups.push(() => importer.close());
    expect(await start('sync-altas-a3', { altas: 's2' }).outcome).toMatchObject({ kind: 'result', result: 'Success', usageUnits: 1, summary: { sincronizadas: 1, errores: 0 } });
    expect(server.submissions.map((each) => each.a3At !== null)).toEqual([false, true]);
  });

  it('a stop ends the A3 wait at once; other jobs (robots, FIE processes) go to the inner runtime', async () => {
    const { start, inner } = await world([fakeSubmission('s1', { redAt: '2026-11-25T10:00:00.000Z' })]);
    const running = start('sync-altas-a3');
    await new Promise((resolve) => setTimeout(resolve, 100));
    running.stop('user');
    expect(await running.outcome).toEqual({ kind: 'stopped', by: 'user' });
    await start('sync-fie-a3').outcome;
    await start(null as unknown as string).outcome;
    expect(inner.jobs.map((job) => job.localProcess)).toEqual(['sync-fie-a3', null]);
  });
});
