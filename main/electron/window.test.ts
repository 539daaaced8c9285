import { beforeEach, describe, expect, it, vi } from 'vitest';

const created: { options: Record<string, unknown>; userAgent?: string; url?: string; listeners: Record<string, (...args: unknown[]) => void>; openHandler?: (details: { url: string }) => unknown }[] = [];
const openExternal = vi.fn(async () => undefined);
let headersHook: ((details: { responseHeaders: Record<string, string[]> }, callback: (result: unknown) => void) => void) | undefined;

vi.mock('electron', () => {
  class BrowserWindow {
    webContents;
    constructor(options: Record<string, unknown>) {
      const record: (typeof created)[number] = { options, listeners: {} };
      created.push(record);
      this.webContents = {
        getUserAgent: () => 'Mozilla/5.0 Chrome/140',
        setUserAgent: (ua: string) => (record.userAgent = ua),
        on: (name: string, listener: (...args: unknown[]) => void) => (record.listeners[name] = listener),
        setWindowOpenHandler: (handler: (details: { url: string }) => unknown) => (record.openHandler = handler),
      };
      this.loadURL = async (url: string) => void (record.url = url);
    }
    loadURL;
    once() {}
  }
  return {
    BrowserWindow,
    shell: { openExternal },
    session: { defaultSession: { webRequest: { onHeadersReceived: (hook: typeof headersHook) => (headersHook = hook) } } },
  };
});

const { createMainWindow } = await import('./window.ts');

beforeEach(() => {
  created.length = 0;
  openExternal.mockClear();
});

describe('createMainWindow', () => {
  function open() {
    createMainWindow({ serverUrl: 'http://localhost:8081/', preloadPath: '/app/preload.cjs', appVersion: '1.2.3' });
    const window = created[0];
    if (!window) throw new Error('no window created');
    return window;
  }

  it('isolates the renderer from Node', () => {
    const { options } = open();
    expect(options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, preload: '/app/preload.cjs' });
  });

  it('marks the user agent so the renderer knows it is embedded, and loads the chosen server', () => {
    const window = open();
    expect(window.userAgent).toBe('Mozilla/5.0 Chrome/140 AutoAsesorDesktop/1.2.3');
    expect(window.url).toBe('http://localhost:8081/');
  });

  it('adds a Content-Security-Policy to every response', () => {
    open();
    let result: unknown;
    headersHook?.({ responseHeaders: { 'Content-Type': ['text/html'] } }, (r) => (result = r));
    expect(result).toMatchObject({ responseHeaders: { 'Content-Security-Policy': [expect.stringContaining("script-src 'self'")] } });
  });

  it('blocks navigation to other origins and opens https links outside', () => {
    const window = open();
    const elsewhere = { preventDefault: vi.fn() };
    window.listeners['will-navigate']?.(elsewhere, 'https://phishing.example/login');
    expect(elsewhere.preventDefault).toHaveBeenCalled();
    const inside = { preventDefault: vi.fn() };
    window.listeners['will-navigate']?.(inside, 'http://localhost:8081/flows');
    expect(inside.preventDefault).not.toHaveBeenCalled();

    expect(window.openHandler?.({ url: 'https://www.seg-social.es/' })).toEqual({ action: 'deny' });
    expect(openExternal).toHaveBeenCalledWith('https://www.seg-social.es/');
    expect(window.openHandler?.({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(openExternal).toHaveBeenCalledTimes(1);
  });
});
