import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDesktopSettings, serverUrlFor, writeDesktopSettings } from './desktop-settings.ts';

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
