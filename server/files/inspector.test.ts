import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileRefusal } from './errors.ts';
import { ConcurrencyLimit, DEFAULT_INSPECTOR_OPTIONS, inspectionCommand, UploadInspector } from './inspector.ts';
import { repeatedRowsOds, zipBombXlsx } from './testing.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inspector-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

async function stored(name: string, data: Buffer | string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, data);
  return path;
}

async function refusal(promise: Promise<unknown>): Promise<FileRefusal> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(FileRefusal);
  return error as FileRefusal;
}

describe('UploadInspector', () => {
  it('starts the child from the source under tsx, and from inspect-child.js beside a bundle', () => {
    expect(inspectionCommand(2048, 'file:///app/server/files/inspector.ts', '')).toMatchObject({ entry: '/app/server/files/inspect-child.ts', execArgv: ['--import', expect.stringContaining('tsx'), '--max-old-space-size=2048'] });
    // From source in a test run that built the children once (scripts/vitest-child-bundles.ts).
    expect(inspectionCommand(2048, 'file:///app/server/files/inspector.ts', '/tmp/children')).toEqual({ entry: '/tmp/children/inspect-child.js', execArgv: ['--max-old-space-size=2048'] });
    expect(inspectionCommand(512, 'file:///app/dist/server/index.js')).toEqual({ entry: '/app/dist/server/inspect-child.js', execArgv: ['--max-old-space-size=512'] });
  });

  it('answers what the child found, and passes its refusals on as they are', async () => {
    const inspector = new UploadInspector();
    const path = await stored('lista.csv', 'NIF;Nombre\n1;Ana\n');
    expect(await inspector.inspect({ path, name: 'lista.csv', type: 'csv' })).toEqual({ detectedType: 'csv', sheet: { sheet: 'lista', columns: ['NIF', 'Nombre'], rowCount: 1 }, entryCount: null });
    const binary = await stored('binario.csv', Buffer.from([0x41, 0, 0x42]));
    expect(await refusal(inspector.inspect({ path: binary, name: 'binario.csv', type: 'csv' }))).toMatchObject({ kind: 'type', message: 'No es un CSV: contiene bytes nulos, como un archivo binario' });
  });

  it('kills an inspection past its time limit and refuses the file naming the limit', async () => {
    const path = await stored('lento.xlsx', await zipBombXlsx(1_000_000));
    const refused = await refusal(new UploadInspector({ ...DEFAULT_INSPECTOR_OPTIONS, timeLimitMs: 1_500 }).inspect({ path, name: 'lento.xlsx', type: 'xlsx' }));
    expect(refused).toMatchObject({ kind: 'cap', message: 'Leer el archivo lleva más de 2 segundos, el máximo. Guárdalo de nuevo o divídelo en archivos más pequeños.' });
  }, 30_000);

  it('refuses an .ods that unfolds past the heap limit (its child dies alone), and past the row cap with room to read it', async () => {
    const path = await stored('repetida.ods', await repeatedRowsOds(1_000_001));
    const outOfMemory = await refusal(new UploadInspector({ ...DEFAULT_INSPECTOR_OPTIONS, memoryMb: 64 }).inspect({ path, name: 'repetida.ods', type: 'ods' }));
    expect(outOfMemory).toMatchObject({ kind: 'cap', message: 'Leer el archivo necesita más de 64 MB de memoria, el máximo. Guárdalo de nuevo o divídelo en archivos más pequeños.' });
    const tooManyRows = await refusal(new UploadInspector().inspect({ path, name: 'repetida.ods', type: 'ods' }));
    expect(tooManyRows).toMatchObject({ kind: 'cap', message: 'El archivo tiene más de 1.000.000 filas, el máximo que se lee. Divídelo en archivos más pequeños.' });
  }, 60_000);
});

describe('ConcurrencyLimit', () => {
  it('runs at most its limit at once, the rest in the order they came', async () => {
    const limit = new ConcurrencyLimit(2);
    const started: number[] = [];
    let running = 0;
    let most = 0;
    const releases: (() => void)[] = [];
    const tasks = [0, 1, 2, 3, 4].map((index) =>
      limit.run(async () => {
        started.push(index);
        running += 1;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running -= 1;
        return index;
      }),
    );
    while (started.length < 5) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      expect(running).toBeLessThanOrEqual(2);
      releases.shift()?.();
    }
    releases.forEach((release) => release());
    expect(await Promise.all(tasks)).toEqual([0, 1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
    expect(limit.active).toBe(0);
  });

  it('frees its slot when a task fails', async () => {
    const limit = new ConcurrencyLimit(1);
    await expect(limit.run(() => Promise.reject(new Error('falla')))).rejects.toThrow('falla');
    expect(await limit.run(() => Promise.resolve('sigue'))).toBe('sigue');
  });
});
