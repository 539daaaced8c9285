import { beforeEach, describe, expect, it, vi } from 'vitest';

const created: { options: Record<string, unknown>; userAgent?: string; url?: string; listeners: Record<string, (...args: unknown[]) => void>; openHandler?: (details: { url: string }) => unknown }[] = [];
const openExternal = vi.fn(async () => undefined);
let headersHook: ((details: { responseHeaders: Record<string, string[]> }, callback: (result: unknown) => void) => void) | undefined;
type RequestHandler = (webContents: unknown, permission: string, callback: (granted: boolean) => void, details: { requestingUrl?: string }) => void;
type CheckHandler = (webContents: unknown, permission: string, requestingOrigin: string) => boolean;
const permissions: { request?: RequestHandler; check?: CheckHandler; device?: () => boolean } = {};

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
    session: {
      defaultSession: {
        webRequest: { onHeadersReceived: (hook: typeof headersHook) => (headersHook = hook) },
        setPermissionRequestHandler: (handler: RequestHandler) => (permissions.request = handler),
        setPermissionCheckHandler: (handler: CheckHandler) => (permissions.check = handler),
        setDevicePermissionHandler: (handler: () => boolean) => (permissions.device = handler),
      },
    },
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
    // Middle click would open links in new windows past setWindowOpenHandler (Electronegativity AUXCLICK).
    expect(options.webPreferences).toMatchObject({ disableBlinkFeatures: 'Auxclick' });
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

  it('blocks navigation to other origins and opens only allowlisted links outside', () => {
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
    // Before the allowlist any https URL went to the operating system.
    expect(window.openHandler?.({ url: 'https://phishing.example/login' })).toEqual({ action: 'deny' });
    expect(window.openHandler?.({ url: 'mailto:soporte@autoasesor.es' })).toEqual({ action: 'deny' });
    expect(openExternal.mock.calls).toEqual([['https://www.seg-social.es/'], ['mailto:soporte@autoasesor.es']]);
  });

  it('denies every permission request and check except clipboard writes from our server', () => {
    open();
    const asked = (permission: string, requestingUrl: string) => {
      let granted: boolean | undefined;
      permissions.request?.({}, permission, (answer) => (granted = answer), { requestingUrl });
      return granted;
    };
    for (const permission of ['media', 'geolocation', 'notifications', 'midiSysex', 'openExternal', 'fullscreen', 'clipboard-read', 'hid', 'serial']) {
      expect(asked(permission, 'http://localhost:8081/flows')).toBe(false);
      expect(permissions.check?.({}, permission, 'http://localhost:8081')).toBe(false);
    }
    expect(asked('clipboard-sanitized-write', 'http://localhost:8081/flows')).toBe(true);
    expect(asked('clipboard-sanitized-write', 'https://phishing.example/')).toBe(false);
    expect(permissions.device?.()).toBe(false);
  });
});
