/** The runtime's spare robot process, forked ahead of the next run (with real child processes and the test robots). */
import { describe, expect, it } from 'vitest';
import { createPkcs12, createTestCertificate } from '../certificates/testing/spanish-certificates.ts';
import type { RobotRuntimeHost } from './runtime.ts';
import { childrenOf, chromiumFound, chromiumPath, goneWithin, job, noCertificates, pidIn, runtime, useRunFolders, watch } from './testing/runtime-harness.ts';

useRunFolders();

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
