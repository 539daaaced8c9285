import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExecutionStateResponse } from '#shared/api/flows.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { TEST_FLOW_ID } from '../flows/test-flows/index.ts';
import { startRunProcess } from './run-child.ts';
import { TEST_FLOWS_CONFIG, finishedState, launch } from './test-support.ts';

/**
 * Outputs a robot streams through context.output (issue 42): written to disk by the run's process as
 * they come, stored and listed with the run when it ends with a result (names made unique with the
 * outputs given as bytes), and gone, with the folder they were written in, when it does not.
 */

/** Every file under a folder, as paths relative to it. */
async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name).slice(folder.length + 1));
}

/** Byte n of a streamed test output is n % 251 (test-flows/robot.ts streamOutput). */
function expectedBytes(length: number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let at = 0; at < length; at += 1) bytes[at] = at % 251;
  return bytes;
}

describe('outputs streamed by a server robot', () => {
  let server: TestServer;
  let jar: CookieJar;
  let storageDir: string;
  beforeEach(async () => {
    server = await startTestServer(TEST_FLOWS_CONFIG);
    storageDir = join(server.dir, 'storage');
    jar = await registerUser(server.app, 'ana@asesoria.es');
  });
  afterEach(async () => server.close());

  it('stores the closed ones before those given as bytes, drops one left open, and serves them byte for byte', async () => {
    const token = (await launch(jar, TEST_FLOW_ID, { mode: 'stream' })).json().executionToken as string;
    const done = await finishedState(jar, token);
    expect(done.output?.status, JSON.stringify(done)).toBe(200);
    // The streamed 'resultado.txt' came first, so the one given as bytes is the '(2)' (the answer lists them by name).
    expect([...(done.output?.data.files ?? [])].sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'grande.bin', size: 40 * 64 * 1024 },
      { name: 'resultado (2).txt', size: 8 },
      { name: 'resultado.txt', size: 64 * 1024 },
    ]);
    const runId = done.output?.data.runId ?? '';
    const big = await jar.get(`/api/flowlog/${runId}/outputs/grande.bin`);
    expect(big.statusCode).toBe(200);
    expect(big.rawPayload.equals(expectedBytes(40 * 64 * 1024))).toBe(true);
    expect((await jar.get(`/api/flowlog/${runId}/outputs/${encodeURIComponent('resultado (2).txt')}`)).body).toBe('en bytes');
    // On disk: the three files indexed, nothing else (no '.part', no staging folder in storage).
    expect(await filesUnder(storageDir)).toHaveLength(3);
    expect(server.countRows('stored_files')).toBe(3);
  });

  for (const mode of ['stream-throw', 'stream-crash'] as const) {
    it(`keeps nothing of a run that ends without a result (${mode}): no file, no row`, async () => {
      const token = (await launch(jar, TEST_FLOW_ID, { mode })).json().executionToken as string;
      const done = await finishedState(jar, token);
      expect(done.output).toMatchObject({ status: 500, data: { cost: 0, files: [] } });
      expect(await filesUnder(storageDir)).toEqual([]);
      expect(server.countRows('stored_files')).toBe(0);
    });
  }

  it('keeps nothing of a run stopped after it had written and closed an output', async () => {
    const token = (await launch(jar, TEST_FLOW_ID, { mode: 'stream-wait' })).json().executionToken as string;
    for (let tries = 0; tries < 100; tries += 1) {
      const state = (await jar.get(`/api/browserflow/execution/state/${token}?wait=2&since=0`)).json() as ExecutionStateResponse;
      if (state.totalIterations === 10) break;
    }
    // Written beside storage, in the run's own staging folder, while it runs.
    const staging = await readdir(join(storageDir, '.salidas'));
    expect(staging).toHaveLength(1);
    expect((await filesUnder(join(storageDir, '.salidas', staging[0] ?? ''))).length).toBeGreaterThan(0);
    expect((await jar.post(`/api/browserflow/execution/state/${token}/stop`)).statusCode).toBe(200);
    const done = await finishedState(jar, token);
    expect(done.output).toMatchObject({ status: 202, data: { files: [] } });
    expect(await filesUnder(storageDir)).toEqual([]);
    expect(server.countRows('stored_files')).toBe(0);
  });
});

describe('the run process and its output folder', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'autoasesor-salidas-prueba-'));
  });
  afterEach(async () => rm(folder, { recursive: true, force: true }));

  const job = (mode: string) => ({
    flowId: TEST_FLOW_ID,
    flowsModule: TEST_FLOWS_CONFIG.flowsModule ?? null,
    inputs: { mode },
    files: {},
    startedAt: new Date().toISOString(),
    outputFolder: join(folder, 'ejecucion'),
  });
  const limits = { timeLimitMs: 30_000, memoryMb: 128, stopGraceMs: 300 };
  const quiet = { log: () => undefined, progress: () => undefined };

  it('hands a result its closed files, whole, in the folder the job named', async () => {
    const outcome = await startRunProcess(job('stream'), limits, quiet).outcome;
    expect(outcome.kind).toBe('result');
    if (outcome.kind !== 'result') return;
    expect(outcome.staged?.folder).toBe(join(folder, 'ejecucion'));
    expect(outcome.staged?.files.map(({ name, size }) => ({ name, size }))).toEqual([
      { name: 'grande.bin', size: 40 * 64 * 1024 },
      { name: 'resultado.txt', size: 64 * 1024 },
    ]);
    for (const file of outcome.staged?.files ?? []) expect((await stat(file.path)).size).toBe(file.size);
  });

  it('removes the folder, with what was written and what was half-written, when the robot throws or is stopped', async () => {
    const thrown = await startRunProcess(job('stream-throw'), limits, quiet).outcome;
    expect(thrown.kind).toBe('failed');
    expect(await filesUnder(folder)).toEqual([]);

    const running = startRunProcess(job('stream-wait'), limits, { log: () => undefined, progress: () => running.stop() });
    expect((await running.outcome).kind).toBe('stopped');
    expect(await readdir(folder)).toEqual([]);
  });
});
