import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

// A stand-in keyring: safeStorage cannot run outside Electron. It reverses the bytes so sealed text differs.
const keyring = { available: true, backend: 'gnome_libsecret' };
vi.mock('electron', () => ({
  safeStorage: {
    isEncryptionAvailable: () => keyring.available,
    getSelectedStorageBackend: () => keyring.backend,
    encryptString: (plain: string) => Buffer.from(plain, 'utf8').reverse(),
    decryptString: (sealed: Buffer) => {
      if (sealed.length === 0) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      return Buffer.from(sealed).reverse().toString('utf8');
    },
  },
}));

const { safeStorageSecretBox } = await import('./safe-storage-box.ts');
const folder = await mkdtemp(join(tmpdir(), 'safe-storage-box-'));
afterAll(() => rm(folder, { recursive: true, force: true }));

describe('safeStorageSecretBox', () => {
  it('seals with the keyring when there is one', async () => {
    const box = safeStorageSecretBox(join(folder, 'secret.key'));
    const sealed = await box.seal('Clave-Sello');
    expect(sealed).toMatch(/^ss1:/);
    await expect(box.open(sealed)).resolves.toBe('Clave-Sello');
    await expect(box.open('ss1:')).rejects.toThrow('llavero');
  });

  it.each([
    ['no keyring at all', false, 'gnome_libsecret'],
    ["only Linux's basic_text", true, 'basic_text'],
  ])('uses the key file with %s, and still opens what the keyring sealed before', async (_case, available, backend) => {
    const box = safeStorageSecretBox(join(folder, 'secret.key'));
    const earlier = await box.seal('de antes');
    Object.assign(keyring, { available, backend });
    try {
      const sealed = await box.seal('Clave-Sello');
      expect(sealed).toMatch(process.platform === 'linux' || !available ? /^gcm1:/ : /^ss1:/);
      await expect(box.open(sealed)).resolves.toBe('Clave-Sello');
      await expect(box.open(earlier)).resolves.toBe('de antes');
    } finally {
      Object.assign(keyring, { available: true, backend: 'gnome_libsecret' });
    }
  });
});
