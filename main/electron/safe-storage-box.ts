import { safeStorage } from 'electron';
import { keyFileSecretBox, SecretBoxError, type SecretBox } from '../certificates/secret-box.ts';

const PREFIX = 'ss1:';

/**
 * Seals the .p12 passwords with the OS keyring through Electron's safeStorage (DPAPI on Windows, the
 * Keychain on macOS, libsecret/KWallet on Linux). Where there is none, or on Linux only safeStorage's
 * 'basic_text' backend (a key written in Chromium itself), the agent's 0600 key file is used instead.
 * What each one sealed carries its prefix, so either can open its own after the other was in use.
 */
export function safeStorageSecretBox(fallbackKeyFile: string): SecretBox {
  const keyFile = keyFileSecretBox(fallbackKeyFile);
  const keyringAvailable = () =>
    safeStorage.isEncryptionAvailable() && (process.platform !== 'linux' || safeStorage.getSelectedStorageBackend() !== 'basic_text');
  return {
    async seal(plain) {
      if (!keyringAvailable()) return keyFile.seal(plain);
      return `${PREFIX}${safeStorage.encryptString(plain).toString('base64')}`;
    },
    async open(sealed) {
      if (!sealed.startsWith(PREFIX)) return keyFile.open(sealed);
      try {
        return safeStorage.decryptString(Buffer.from(sealed.slice(PREFIX.length), 'base64'));
      } catch {
        throw new SecretBoxError('El secreto guardado no se puede descifrar con el llavero de este equipo.');
      }
    },
  };
}
