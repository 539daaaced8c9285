/**
 * Where the .p12/.pfx passwords are kept encrypted. The desktop app seals them with Electron's
 * safeStorage (main/electron/safe-storage-box.ts); the headless agent, which has no OS keyring to
 * ask, with AES-256-GCM under a random key in a file only its user can read (0600).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmod, link, mkdir, open, readFile, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface SecretBox {
  seal(plain: string): Promise<string>;
  /** Throws SecretBoxError when the text was not sealed by this box (another key, tampered, truncated). */
  open(sealed: string): Promise<string>;
}

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const FORMAT = 'gcm1';

/** A box whose key lives in `keyFile`, made (0600, in a 0700 folder) the first time it is needed. */
export function keyFileSecretBox(keyFile: string): SecretBox {
  let key: Promise<Buffer> | null = null;
  const loadKey = () => (key ??= readOrCreateKey(keyFile).catch((error: unknown) => {
    key = null;
    throw error;
  }));
  return {
    async seal(plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', await loadKey(), iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${FORMAT}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
    },
    async open(sealed) {
      const [format, payload] = sealed.split(':');
      const bytes = Buffer.from(payload ?? '', 'base64');
      if (format !== FORMAT || bytes.length < IV_BYTES + TAG_BYTES) throw new SecretBoxError('El secreto guardado no tiene un formato válido.');
      const decipher = createDecipheriv('aes-256-gcm', await loadKey(), bytes.subarray(0, IV_BYTES));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretBoxError('El secreto guardado no se puede descifrar en este equipo.');
      }
    },
  };
}

async function readOrCreateKey(keyFile: string): Promise<Buffer> {
  try {
    return await readKey(keyFile);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dirname(keyFile), { recursive: true, mode: 0o700 });
  // Written whole under another name, then linked into place: a process starting at the same moment
  // either finds no key or a complete one, and the first link wins (EEXIST: use the one that is there).
  const draft = `${keyFile}.${process.pid}.${randomBytes(4).toString('hex')}`;
  const handle = await open(draft, 'wx', 0o600);
  try {
    await handle.writeFile(randomBytes(KEY_BYTES));
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await link(draft, keyFile);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(draft);
  }
  return readKey(keyFile);
}

async function readKey(keyFile: string): Promise<Buffer> {
  const key = await readFile(keyFile);
  if (key.length !== KEY_BYTES) throw new SecretBoxError(`La clave de ${keyFile} no es válida: bórrala y vuelve a escribir las contraseñas de los certificados.`);
  // A key others can read protects nothing: take the permissions back (POSIX only; Windows has no mode bits).
  if (process.platform !== 'win32' && ((await stat(keyFile)).mode & 0o077) !== 0) await chmod(keyFile, 0o600);
  return key;
}
