import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { ResolvedConfig } from 'vite';
import { MIN_BYTES, precompress, precompressDir } from './precompress.ts';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('precompressDir', () => {
  it('writes .br and .gz copies that decode to each text file, at any depth, and leaves the rest alone', async () => {
    dir = await mkdtemp(join(tmpdir(), 'autoasesor-precompress-'));
    await mkdir(join(dir, 'assets'));
    const script = 'export const saludo = "hola";\n'.repeat(100);
    const style = '.app { display: grid; }\n'.repeat(100);
    await writeFile(join(dir, 'assets', 'app.js'), script);
    await writeFile(join(dir, 'assets', 'app.css'), style);
    await writeFile(join(dir, 'tiny.svg'), '<svg/>');
    await writeFile(join(dir, 'logo.png'), Buffer.alloc(MIN_BYTES * 2, 7));

    const done = await precompressDir(dir);

    expect(done.sort()).toEqual([join(dir, 'assets', 'app.css'), join(dir, 'assets', 'app.js')]);
    for (const [file, text] of [['app.js', script], ['app.css', style]] as const) {
      const br = await readFile(join(dir, 'assets', `${file}.br`));
      const gz = await readFile(join(dir, 'assets', `${file}.gz`));
      expect(brotliDecompressSync(br).toString()).toBe(text);
      expect(gunzipSync(gz).toString()).toBe(text);
      expect(br.length).toBeLessThan(text.length / 10);
    }
    expect((await readdir(dir)).sort()).toEqual(['assets', 'logo.png', 'tiny.svg']);
  });
});

describe('precompress (the Vite plugin)', () => {
  it('finds an outDir given relative to the root, whatever the working directory (npm run build:web)', async () => {
    dir = await mkdtemp(join(tmpdir(), 'autoasesor-precompress-'));
    await mkdir(join(dir, 'renderer'));
    await mkdir(join(dir, 'dist'));
    await writeFile(join(dir, 'dist', 'index.html'), '<p>hola</p>'.repeat(200));
    const plugin = precompress() as unknown as {
      configResolved: (config: Pick<ResolvedConfig, 'root'> & { build: { outDir: string } }) => void;
      closeBundle: () => Promise<void>;
    };

    plugin.configResolved({ root: join(dir, 'renderer'), build: { outDir: '../dist' } });
    await plugin.closeBundle();

    expect((await readdir(join(dir, 'dist'))).sort()).toEqual(['index.html', 'index.html.br', 'index.html.gz']);
  });
});
