import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDesktopSettings, ServerUrlError, serverUrlFor, writeDesktopSettings } from './desktop-settings.ts';

describe('desktop settings', () => {
  it('defaults to the local server when nothing is saved or the file is damaged', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'aa-settings-'));
    expect(serverUrlFor(await readDesktopSettings(join(dir, 'missing.json')), {})).toBe('http://localhost:8081');
    await writeFile(join(dir, 'broken.json'), '{ not json');
    expect(await readDesktopSettings(join(dir, 'broken.json'))).toEqual({ server: 'local' });
  });

  it('saves and reads back the chosen server', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'aa-settings-')), 'nested', 'settings.json');
    await writeDesktopSettings(file, { server: 'custom', customServerUrl: 'https://asesoria.example/' });
    const settings = await readDesktopSettings(file);
    expect(serverUrlFor(settings, {})).toBe('https://asesoria.example/');
    expect(serverUrlFor(settings, { AUTOASESOR_SERVER_URL: 'http://127.0.0.1:9000' })).toBe('http://127.0.0.1:9000');
  });

  it('refuses to save an invalid server URL', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'aa-settings-')), 'settings.json');
    await expect(writeDesktopSettings(file, { server: 'custom', customServerUrl: 'javascript:alert(1)' })).rejects.toThrow();
  });
});

describe('server URL check', () => {
  it('accepts https anywhere and http only for this machine', () => {
    for (const url of ['https://app.autoasesor.es', 'https://asesoria.example:8443/', 'http://localhost:8081', 'http://127.0.0.1:9000', 'http://[::1]:8081/']) {
      expect(serverUrlFor({ server: 'local' }, { AUTOASESOR_SERVER_URL: url })).toBe(url);
    }
  });

  it.each(['http://app.autoasesor.es', 'http://192.168.1.10:8081', 'http://localhost.evil.example', 'ftp://app.autoasesor.es', 'javascript:alert(1)', 'file:///etc/passwd', 'https://user:pw@app.autoasesor.es', 'no es una url'])(
    'refuses AUTOASESOR_SERVER_URL=%s with a Spanish error',
    (url) => {
      expect(() => serverUrlFor({ server: 'local' }, { AUTOASESOR_SERVER_URL: url })).toThrow(ServerUrlError);
      expect(() => serverUrlFor({ server: 'local' }, { AUTOASESOR_SERVER_URL: url })).toThrow(
        `La dirección del servidor de AUTOASESOR_SERVER_URL no es válida: «${url}». Usa una dirección https:// (http:// solo para este equipo: localhost o 127.0.0.1).`,
      );
    },
  );

  it('refuses to save or use a plain-http custom server elsewhere than this machine', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'aa-settings-')), 'settings.json');
    await expect(writeDesktopSettings(file, { server: 'custom', customServerUrl: 'http://asesoria.example/' })).rejects.toThrow('La dirección del servidor no es válida.');
    expect(() => serverUrlFor({ server: 'custom', customServerUrl: 'http://asesoria.example/' }, {})).toThrow('La dirección del servidor de la configuración no es válida');
    // A hand-edited settings file with such a URL falls back to the defaults instead of loading it.
    await writeFile(file, JSON.stringify({ server: 'custom', customServerUrl: 'http://asesoria.example/' }));
    expect(serverUrlFor(await readDesktopSettings(file), {})).toBe('http://localhost:8081');
  });
});
