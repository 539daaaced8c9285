import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RobotJob, RobotRuntime } from '../robots/types.ts';
import { withDehuLocalProcesses } from './local-processes.ts';
import { storedCertificate, testDehuDesktop } from './testing/desktop-context.ts';
import { startFakeDehuServer } from './testing/fake-dehu-server.ts';
import { fakeLema, lemaEnvio, type FakeMailbox } from './testing/fake-lema.ts';
import { LemaError } from './types.ts';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

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

async function world(mailboxes: Record<string, FakeMailbox>) {
  const folder = await mkdtemp(join(tmpdir(), 'dehu-run-'));
  folders.push(folder);
  const server = startFakeDehuServer([{ fingerprint: A, commonName: 'EMPRESA A SL', nif: null }, { fingerprint: B, commonName: 'EMPRESA B SL', nif: null }]);
  const dehu = testDehuDesktop(server, fakeLema(mailboxes), [storedCertificate(A, 'EMPRESA A SL'), storedCertificate(B, 'EMPRESA B SL')]);
  const inner = innerRuntime();
  const runtime = withDehuLocalProcesses(inner, { dehu: () => dehu });
  const lines: string[] = [];
  const progress: [number, number][] = [];
  const start = (localProcess: string) =>
    runtime.start(
      { runId: 'run-1', flowId: 'actualizar-notificaciones-dehu', inputs: {}, timeLimitSeconds: 900, startedAt: new Date().toISOString(), outputFolder: join(folder, 'out'), localProcess },
      { log: (level, text) => lines.push(`${level}: ${text}`), progress: (done, total) => progress.push([done, total]) },
    );
  return { server, inner, start, lines, progress };
}

describe('withDehuLocalProcesses', () => {
  it('update-dehu-notifications updates every watched certificate here, logs each, charges nothing', async () => {
    const refused = new LemaError('4103 - Certificado no autorizado', '4103');
    const { start, lines, progress, server } = await world({ [A]: { pendientes: [lemaEnvio('A-1')], realizadas: [] }, [B]: { pendientes: [], realizadas: [], failure: refused } });
    const outcome = await start('update-dehu-notifications').outcome;
    expect(outcome).toMatchObject({ kind: 'result', result: 'Success', usageUnits: 0, summary: { certificados: 2, actualizados: 1, errores: 1, encontradas: 1, nuevas: 1 } });
    expect(progress).toEqual([[1, 2]]);
    expect(lines).toContain('error: «EMPRESA B SL»: 4103 - Certificado no autorizado');
    expect(lines.at(-1)).toBe('warn: Actualizados 1 de 2 certificado(s): 1 notificación(es), 1 nueva(s).');
    expect(server.statuses.map((status) => status.state)).toEqual(['running', 'done', 'running', 'error']);
  });

  it('fails when every certificate failed', async () => {
    const { start } = await world({});
    expect(await start('update-dehu-notifications').outcome).toMatchObject({ kind: 'result', result: 'Fail', usageUnits: 0, summary: { actualizados: 0, errores: 2 } });
  });

  it('hands any other job to the inner runtime', async () => {
    const { start, inner } = await world({});
    await start('sync-altas').outcome;
    expect(inner.jobs.map((job) => job.localProcess)).toEqual(['sync-altas']);
  });
});
