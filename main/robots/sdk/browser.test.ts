import { describe, expect, it } from 'vitest';
import { browserLaunchOptions, CHROMIUM_FLAGS, RobotBrowsers } from './browser.ts';

describe('browserLaunchOptions', () => {
  it("uses each platform's own browser: Edge on Windows, Chrome on macOS, /usr/bin/chromium on Linux", () => {
    expect(browserLaunchOptions('win32', null, {})).toEqual({ channel: 'msedge', args: [...CHROMIUM_FLAGS] });
    expect(browserLaunchOptions('darwin', null, {})).toEqual({ channel: 'chrome', args: [...CHROMIUM_FLAGS] });
    expect(browserLaunchOptions('linux', null, {})).toEqual({ executablePath: '/usr/bin/chromium', args: [...CHROMIUM_FLAGS, '--no-sandbox'] });
  });

  it('an installation path wins over CHROMIUM_PATH, which wins over the default; the sandbox stays on off Linux', () => {
    expect(browserLaunchOptions('linux', '/opt/chromium/chrome', { CHROMIUM_PATH: '/usr/lib/chromium' })).toMatchObject({ executablePath: '/opt/chromium/chrome' });
    expect(browserLaunchOptions('linux', null, { CHROMIUM_PATH: '/usr/lib/chromium' })).toMatchObject({ executablePath: '/usr/lib/chromium' });
    expect(browserLaunchOptions('win32', 'C:\\Chromium\\chrome.exe', {}).args).not.toContain('--no-sandbox');
  });
});

describe('RobotBrowsers.open refuses before launching anything', () => {
  const browsers = (inputs: Record<string, unknown>) =>
    new RobotBrowsers({
      launchOptions: { executablePath: '/no/such/browser' },
      inputs,
      ignoreHTTPSErrors: false,
      clientCertificate: async () => {
        throw new Error('not asked');
      },
    });
  const fingerprint = 'a'.repeat(64);

  it('a Certificate input with no certificate chosen', async () => {
    await expect(browsers({}).open({ certificateInput: 'certificado', origins: ['https://sede.example'] })).rejects.toThrow('No se ha elegido un certificado en la entrada «certificado»');
    await expect(browsers({ certificado: 'Ana' }).open({ certificateInput: 'certificado', origins: ['https://sede.example'] })).rejects.toThrow('No se ha elegido un certificado');
  });

  it('origins that are not HTTPS addresses, or none', async () => {
    await expect(browsers({ certificado: fingerprint }).open({ certificateInput: 'certificado', origins: ['http://sede.example'] })).rejects.toThrow('El certificado solo se presenta por HTTPS: http://sede.example');
    await expect(browsers({ certificado: fingerprint }).open({ certificateInput: 'certificado', origins: ['sede'] })).rejects.toThrow('sede no es una dirección web válida');
    await expect(browsers({ certificado: fingerprint }).open({ certificateInput: 'certificado', origins: [] })).rejects.toThrow('al menos un origen');
  });

  it('a browser that cannot start is named in the error', async () => {
    const robot = new RobotBrowsers({
      launchOptions: { executablePath: '/no/such/browser' },
      inputs: { certificado: fingerprint },
      ignoreHTTPSErrors: false,
      clientCertificate: async () => ({ pfx: Buffer.alloc(1), passphrase: 'x' }),
    });
    await expect(robot.open({ certificateInput: 'certificado', origins: ['https://sede.example'] })).rejects.toThrow(/^No se ha podido abrir el navegador \(\/no\/such\/browser\): /);
    await robot.closeAll();
  });
});
