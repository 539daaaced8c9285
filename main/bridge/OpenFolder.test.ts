import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTSIDE_OUTPUT_MESSAGE } from './OpenFolder.ts';
import { dispatch } from './registry.ts';
import { fakeContext } from './test-context.ts';

let base: string;
let outputRoot: string;
let runFolder: string;
let outside: string;
beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'open-folder-'));
  outputRoot = join(base, 'resultados');
  runFolder = join(outputRoot, 'descargar-justificantes', '2026-11-23 09.30.15 1a2b3c4d');
  outside = join(base, 'privado');
  await mkdir(runFolder, { recursive: true });
  await mkdir(outside);
  await writeFile(join(runFolder, 'justificante.pdf'), '%PDF-1.4');
  await symlink(outside, join(outputRoot, 'atajo'));
});
afterAll(() => rm(base, { recursive: true, force: true }));

function context() {
  const opened: string[] = [];
  const ctx = fakeContext({
    robots: { launch: async () => ({ runId: 'x', outputFolder: runFolder }), running: () => 0, outputRoot },
    shell: { openFolder: async (folder) => void opened.push(folder), chooseFiles: null },
  });
  return { ctx, opened };
}

describe('OpenFolder', () => {
  it("opens a run's folder in the file manager", async () => {
    const { ctx, opened } = context();
    await expect(dispatch('OpenFolder', { folder: runFolder }, ctx)).resolves.toEqual({ ok: true, data: { opened: true } });
    expect(opened).toEqual([runFolder]);
  });

  it('opens nothing outside the output root: other folders, .. and symbolic links that lead out', async () => {
    const { ctx, opened } = context();
    for (const folder of [outside, base, '/', join(runFolder, '..', '..', '..', 'privado'), join(outputRoot, 'atajo'), join(runFolder, 'justificante.pdf')]) {
      await expect(dispatch('OpenFolder', { folder }, ctx)).resolves.toEqual({ ok: false, error: { code: 'FORBIDDEN', message: OUTSIDE_OUTPUT_MESSAGE } });
    }
    expect(opened).toEqual([]);
  });

  it('says when the folder is gone', async () => {
    const { ctx, opened } = context();
    const gone = join(outputRoot, 'descargar-justificantes', 'borrada');
    await expect(dispatch('OpenFolder', { folder: gone }, ctx)).resolves.toEqual({ ok: false, error: { code: 'NOT_FOUND', message: `No existe la carpeta ${gone}.` } });
    expect(opened).toEqual([]);
  });

  it("passes on the shell's own failure (no desktop session)", async () => {
    const { ctx } = context();
    const { agentShell } = await import('../device/agent-shell.ts');
    const headless = fakeContext({ robots: ctx.robots, shell: agentShell({ platform: 'linux', env: {} }) });
    await expect(dispatch('OpenFolder', { folder: runFolder }, headless)).resolves.toMatchObject({
      ok: false,
      error: { code: 'UNAVAILABLE', message: expect.stringContaining('sesión de escritorio') },
    });
  });
});
