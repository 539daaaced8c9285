/**
 * Outputs a desktop robot streams (context.output, issue 42): written by its process into the run's
 * folder as they come, named like the others at a result (streamed first, unique with those given as
 * bytes), and gone, with whatever was half-written, when the run ends any other way.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { job, runtime, useRunFolders, watch } from './testing/runtime-harness.ts';

useRunFolders();

const bigFile = () => Buffer.from(Uint8Array.from({ length: 8 * 65_536 }, (_, at) => at % 251));

describe('streamed outputs of a desktop robot', () => {
  it('renames the closed ones to unique names before the bytes outputs, and drops the one left open', async () => {
    const robotJob = job('escribe-en-flujo');
    const outcome = await watch(runtime(), robotJob).robot.outcome;
    expect(outcome).toMatchObject({ kind: 'result', result: 'Success', outputFileNames: ['grande.bin', 'informe.txt', 'informe (2).txt'] });
    expect((await readdir(robotJob.outputFolder)).sort()).toEqual(['grande.bin', 'informe (2).txt', 'informe.txt']);
    expect((await readFile(join(robotJob.outputFolder, 'grande.bin'))).equals(bigFile())).toBe(true);
    expect(await readFile(join(robotJob.outputFolder, 'informe.txt'), 'utf8')).toBe('en flujo');
    expect(await readFile(join(robotJob.outputFolder, 'informe (2).txt'), 'utf8')).toBe('en bytes');
  });

  it('leaves nothing in the folder when the robot throws or is stopped after writing', async () => {
    const robots = runtime();
    const thrown = job('escribe-en-flujo', { inputs: { fin: 'lanza' } });
    expect((await watch(robots, thrown).robot.outcome).kind).toBe('failed');
    expect(await readdir(thrown.outputFolder)).toEqual([]);

    const stopped = job('escribe-en-flujo', { inputs: { fin: 'espera' } });
    const run = watch(robots, stopped);
    for (let tries = 0; tries < 200 && run.logs.length === 0; tries += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    run.robot.stop('user');
    expect(await run.robot.outcome).toEqual({ kind: 'stopped', by: 'user' });
    expect(await readdir(stopped.outputFolder)).toEqual([]);
  });
});
