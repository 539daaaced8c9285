/**
 * The server's secrets box: what must be kept at rest but read back (OAuth refresh and access tokens,
 * PKCE verifiers) is sealed with AES-256-GCM under one key. The key comes from SECRETS_KEY (base64 of
 * 32 bytes), which several server processes sharing one PostgreSQL must all be given; a single
 * process may instead keep it in a file it creates on first use (0600, in a 0700 folder).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmod, link, mkdir, open, readFile, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface SecretsBox {
  seal(plain: string): string;
  /** Throws SecretsError when the text was not sealed by this box (another key, tampered, truncated). */
  open(sealed: string): string;
}

export class SecretsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretsError';
  }
}

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const FORMAT = 'gcm1';

/** A box over a key already in memory (tests, and what loadSecretsBox returns). */
export function secretsBoxWithKey(key: Buffer): SecretsBox {
  if (key.length !== KEY_BYTES) throw new SecretsError(`La clave de cifrado debe tener ${KEY_BYTES} bytes.`);
  return {
    seal(plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${FORMAT}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
    },
    open(sealed) {
      const separator = sealed.indexOf(':');
      const format = separator < 0 ? '' : sealed.slice(0, separator);
      const bytes = Buffer.from(sealed.slice(separator + 1), 'base64');
      if (format !== FORMAT || bytes.length < IV_BYTES + TAG_BYTES) throw new SecretsError('El secreto guardado no tiene un formato válido.');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretsError('El secreto guardado no se puede descifrar con la clave de este servidor (SECRETS_KEY).');
      }
    },
  };
}

/** A box with a random key that lives as long as the process: for tests and servers built without settings. */
export function ephemeralSecretsBox(): SecretsBox {
  return secretsBoxWithKey(randomBytes(KEY_BYTES));
}

/** The key from SECRETS_KEY when given, else from (or into) `keyFile`. Loaded once, at start. */
export async function loadSecretsBox(options: { key?: string; keyFile?: string }): Promise<SecretsBox> {
  if (options.key !== undefined) return secretsBoxWithKey(parseKey(options.key));
  if (options.keyFile === undefined) throw new SecretsError('Falta la clave de cifrado: indica SECRETS_KEY o un fichero de clave.');
  return secretsBoxWithKey(await readOrCreateKey(options.keyFile));
}

function parseKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = Buffer.from(trimmed, 'base64');
  // Buffer.from ignores what is not base64: a round trip tells a real key from a typo.
  if (key.length !== KEY_BYTES || key.toString('base64').replace(/=+$/, '') !== trimmed.replace(/=+$/, '')) {
    throw new SecretsError(`SECRETS_KEY no es válida: debe ser el base64 de ${KEY_BYTES} bytes aleatorios (p. ej. openssl rand -base64 32).`);
  }
  return key;
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
  if (key.length !== KEY_BYTES) throw new SecretsError(`La clave de ${keyFile} no es válida (no tiene ${KEY_BYTES} bytes); sin ella no se pueden leer las cuentas de correo conectadas.`);
  // A key others can read protects nothing: take the permissions back (POSIX only).
  if (process.platform !== 'win32' && ((await stat(keyFile)).mode & 0o077) !== 0) await chmod(keyFile, 0o600);
  return key;
}
