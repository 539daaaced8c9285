import { describe, expect, it } from 'vitest';
import { NO_DIALOG_MESSAGE } from './OpenNativeSelectionDialog.ts';
import { dispatch } from './registry.ts';
import { fakeContext } from './test-context.ts';

describe('OpenNativeSelectionDialog', () => {
  it('is unavailable in the headless agent, in Spanish', async () => {
    await expect(dispatch('OpenNativeSelectionDialog', {}, fakeContext())).resolves.toEqual({ ok: false, error: { code: 'UNAVAILABLE', message: NO_DIALOG_MESSAGE } });
    expect(NO_DIALOG_MESSAGE).toMatch(/^No disponible en el agente sin ventana: /);
  });

  it("asks the window's dialog for files or folders and answers the chosen paths (none when cancelled)", async () => {
    const asked: unknown[] = [];
    let answer = ['/home/ana/modelo.xlsx', '/home/ana/otro.xlsx'];
    const ctx = fakeContext({ shell: { openFolder: async () => undefined, chooseFiles: async (options) => (asked.push(options), answer) } });
    await expect(dispatch('OpenNativeSelectionDialog', { multiple: true, title: 'Elige los modelos' }, ctx)).resolves.toEqual({ ok: true, data: { paths: answer } });
    answer = [];
    await expect(dispatch('OpenNativeSelectionDialog', { directory: true }, ctx)).resolves.toEqual({ ok: true, data: { paths: [] } });
    expect(asked).toEqual([
      { multiple: true, directory: false, title: 'Elige los modelos' },
      { multiple: false, directory: true },
    ]);
  });

  it('checks its arguments', async () => {
    await expect(dispatch('OpenNativeSelectionDialog', { multiple: 'sí' }, fakeContext())).resolves.toMatchObject({ ok: false, error: { code: 'BAD_ARGS' } });
  });
});
