import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEVICE_TOKEN_INVALID_MESSAGE } from '#shared/api/devices.ts';
import { keyFileSecretBox } from '../certificates/secret-box.ts';
import { createDeviceLink, INSECURE_SERVER_MESSAGE, UNREADABLE_LINK_MESSAGE } from './connection.ts';
import { fileTokenStore } from './token-store.ts';
import { startFakeDeviceApi, type FakeDeviceApi } from './testing/fake-device-api.ts';

let api: FakeDeviceApi;
let folder: string;
beforeEach(async () => {
  api = await startFakeDeviceApi();
  folder = await mkdtemp(join(tmpdir(), 'device-link-'));
});
afterEach(async () => {
  await api.close();
  await rm(folder, { recursive: true, force: true });
});

const storeFile = () => join(folder, 'datos', 'device.json');
const store = (keyFile = join(folder, 'datos', 'secret.key')) => fileTokenStore(storeFile(), keyFileSecretBox(keyFile));

describe('the device link', () => {
  it('starts unlinked', async () => {
    await expect(createDeviceLink({ store: store(), fetch }).status()).resolves.toEqual({ linked: false, serverUrl: null, machine: null, problem: null });
  });

  it('checks the token with the server, keeps it sealed in a 0600 file, and finds it again after a restart', async () => {
    const link = createDeviceLink({ store: store(), fetch });
    await expect(link.link(`${api.url}/`, api.token)).resolves.toEqual({ linked: true, serverUrl: api.url, machine: api.machine, problem: null });
    expect(api.calls.map((call) => call.path)).toEqual(['/api/device/me']);

    const text = await readFile(storeFile(), 'utf8');
    expect(text).not.toContain(api.token);
    expect(text).not.toContain(api.url);
    if (process.platform !== 'win32') expect((await stat(storeFile())).mode & 0o777).toBe(0o600);

    const restarted = createDeviceLink({ store: store(), fetch });
    await expect(restarted.status()).resolves.toEqual({ linked: true, serverUrl: api.url, machine: api.machine, problem: null });
    expect(restarted.client()?.serverUrl).toBe(api.url);
  });

  it("refuses a wrong token with the server's message and keeps nothing", async () => {
    const link = createDeviceLink({ store: store(), fetch });
    await expect(link.link(api.url, 'x'.repeat(40))).rejects.toMatchObject({ code: 'NOT_LINKED', message: DEVICE_TOKEN_INVALID_MESSAGE });
    await expect(readFile(storeFile())).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(link.status()).resolves.toMatchObject({ linked: false });
  });

  it('says the server cannot be reached, and keeps the link it had', async () => {
    const link = createDeviceLink({ store: store(), fetch, requestTimeoutMs: 1000 });
    await link.link(api.url, api.token);
    await api.close();
    await expect(link.link(api.url, 'y'.repeat(40))).rejects.toMatchObject({ code: 'UNAVAILABLE', message: expect.stringContaining('No se puede contactar con el servidor') });
    await expect(link.status()).resolves.toMatchObject({ linked: true, serverUrl: api.url });
    expect(link.current()?.deviceToken).toBe(api.token);
  });

  it('never sends a token over plain http to another machine', async () => {
    let fetched = false;
    const link = createDeviceLink({ store: store(), fetch: async () => ((fetched = true), new Response('{}')) });
    await expect(link.link('http://asesoria.example', 'z'.repeat(40))).rejects.toMatchObject({ code: 'BAD_ARGS', message: INSECURE_SERVER_MESSAGE });
    expect(fetched).toBe(false);
  });

  it('unlinks: forgets the token on disk too', async () => {
    const link = createDeviceLink({ store: store(), fetch });
    await link.link(api.url, api.token);
    await expect(link.unlink()).resolves.toEqual({ linked: false, serverUrl: null, machine: null, problem: null });
    await expect(readFile(storeFile())).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(createDeviceLink({ store: store(), fetch }).status()).resolves.toMatchObject({ linked: false });
  });

  it('a file sealed under another key is not a link: the status asks to connect again', async () => {
    await createDeviceLink({ store: store(), fetch }).link(api.url, api.token);
    const elsewhere = createDeviceLink({ store: store(join(folder, 'otra.key')), fetch });
    await expect(elsewhere.status()).resolves.toEqual({ linked: false, serverUrl: null, machine: null, problem: UNREADABLE_LINK_MESSAGE });
    // Linking again replaces the unreadable file.
    await expect(elsewhere.link(api.url, api.token)).resolves.toMatchObject({ linked: true, problem: null });
  });

  it('a damaged file reads as not linked', async () => {
    const link = createDeviceLink({ store: store(), fetch });
    await link.link(api.url, api.token);
    await writeFile(storeFile(), '{ roto');
    await expect(createDeviceLink({ store: store(), fetch }).status()).resolves.toEqual({ linked: false, serverUrl: null, machine: null, problem: null });
  });
});
