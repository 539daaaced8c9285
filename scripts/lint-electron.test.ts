import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { failing, scanElectron } from './lint-electron.ts';

describe('lint:electron', () => {
  it('fails an insecure window (the gate can fail) and honours reviewed eng-disable lines', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'aa-eng-fixture-'));
    try {
      await writeFile(
        join(dir, 'main.ts'),
        [
          "import { BrowserWindow, shell } from 'electron';",
          'const options = { a: 1 } satisfies { a: number };',
          'export const w = new BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false, sandbox: false } });',
          "export const open = (url: string) => shell.openExternal(url); // eng-disable OPEN_EXTERNAL_JS_CHECK: fixture",
          'export { options };',
        ].join('\n'),
      );
      const scan = await scanElectron([dir], '45.4.1');
      expect(scan.unparsed).toEqual([]);
      const ids = failing(scan.issues).map((issue) => issue.id);
      expect(ids).toEqual(expect.arrayContaining(['CONTEXT_ISOLATION_JS_CHECK', 'SANDBOX_JS_CHECK', 'PERMISSION_REQUEST_HANDLER_GLOBAL_CHECK', 'LIMIT_NAVIGATION_GLOBAL_CHECK']));
      expect(ids).not.toContain('OPEN_EXTERNAL_JS_CHECK');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
