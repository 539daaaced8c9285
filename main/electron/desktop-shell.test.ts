import { describe, expect, it, vi } from 'vitest';

const calls: unknown[][] = [];
let openPathAnswer = '';
let dialogAnswer: { canceled: boolean; filePaths: string[] } = { canceled: false, filePaths: [] };

vi.mock('electron', () => ({
  shell: {
    openPath: async (path: string) => (calls.push(['openPath', path]), openPathAnswer),
    openExternal: async (url: string) => void calls.push(['openExternal', url]),
  },
  dialog: { showOpenDialog: async (window: unknown, options: unknown) => (calls.push(['showOpenDialog', window, options]), dialogAnswer) },
}));

const { electronShell, openInSystemBrowser } = await import('./desktop-shell.ts');
const window = { id: 1 } as unknown as Parameters<typeof electronShell>[0];

describe('the desktop shell', () => {
  it("opens folders with the system's file manager and reports its failure in Spanish", async () => {
    calls.length = 0;
    await electronShell(window).openFolder('/home/ana/Documentos/AutoAsesor/x');
    expect(calls).toEqual([['openPath', '/home/ana/Documentos/AutoAsesor/x']]);
    openPathAnswer = 'Failed to open path';
    await expect(electronShell(window).openFolder('/x')).rejects.toMatchObject({ code: 'FAILED', message: 'No se ha podido abrir la carpeta /x: Failed to open path' });
    openPathAnswer = '';
  });

  it('asks the native dialog, modal to the window, and answers nothing when cancelled', async () => {
    calls.length = 0;
    const chooseFiles = electronShell(window).chooseFiles;
    if (!chooseFiles) throw new Error('the window has a dialog');
    dialogAnswer = { canceled: false, filePaths: ['/a.xlsx', '/b.xlsx'] };
    await expect(chooseFiles({ multiple: true, directory: false, title: 'Modelos' })).resolves.toEqual(['/a.xlsx', '/b.xlsx']);
    dialogAnswer = { canceled: true, filePaths: ['/ignorado'] };
    await expect(chooseFiles({ multiple: false, directory: true })).resolves.toEqual([]);
    expect(calls).toEqual([
      ['showOpenDialog', window, { properties: ['openFile', 'multiSelections'], title: 'Modelos' }],
      ['showOpenDialog', window, { properties: ['openDirectory'] }],
    ]);
  });

  it("opens a provider's authorization page in the system browser, and nothing that is not a web address", async () => {
    calls.length = 0;
    await openInSystemBrowser('https://accounts.google.com/o/oauth2/v2/auth?state=s');
    await openInSystemBrowser('http://127.0.0.1:9510/authorize?state=s');
    await expect(openInSystemBrowser('file:///etc/passwd')).rejects.toMatchObject({ code: 'FAILED', message: 'Solo se abren direcciones web en el navegador.' });
    await expect(openInSystemBrowser('ms-settings:privacy')).rejects.toMatchObject({ code: 'FAILED' });
    expect(calls).toEqual([
      ['openExternal', 'https://accounts.google.com/o/oauth2/v2/auth?state=s'],
      ['openExternal', 'http://127.0.0.1:9510/authorize?state=s'],
    ]);
  });
});
