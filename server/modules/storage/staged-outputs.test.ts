import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STAGING_FOLDER, stagingFolderOf, sweepStaging } from './staged-outputs.ts';

describe('sweeping the staging folders a killed process left behind', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'autoasesor-staging-'));
  });
  afterEach(async () => rm(root, { recursive: true, force: true }));

  it('removes only the folders of runs that are over, whatever is half-written in them', async () => {
    for (const runId of ['acabada', 'en-curso']) {
      await mkdir(stagingFolderOf(root, runId), { recursive: true });
      await writeFile(join(stagingFolderOf(root, runId), '0.part'), 'a medias');
    }
    const asked: string[][] = [];
    const removed = await sweepStaging(root, async (runIds) => {
      asked.push([...runIds].sort());
      return new Set(runIds.filter((id) => id !== 'en-curso'));
    });
    expect(removed).toBe(1);
    expect(asked).toEqual([['acabada', 'en-curso']]);
    expect(await readdir(join(root, STAGING_FOLDER))).toEqual(['en-curso']);
  });

  it('asks nothing when no run ever staged an output', async () => {
    let asked = false;
    expect(await sweepStaging(root, async () => ((asked = true), new Set()))).toBe(0);
    expect(asked).toBe(false);
  });
});
