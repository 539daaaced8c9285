import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keyFileSecretBox, SecretBoxError } from './secret-box.ts';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'secret-box-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('keyFileSecretBox', () => {
  it('opens what it sealed, and the sealed text does not show the secret', async () => {
    const box = keyFileSecretBox(join(folder, 'agent', 'secret.key'));
    const sealed = await box.seal('contraseña-del-certificado ñ');
    expect(sealed).not.toContain('contraseña');
    expect(Buffer.from(sealed.split(':')[1] ?? '', 'base64').toString('latin1')).not.toContain('contrase');
    await expect(box.open(sealed)).resolves.toBe('contraseña-del-certificado ñ');
  });

  it('makes the key file readable by its owner only, in a private folder', async () => {
    const keyFile = join(folder, 'agent', 'secret.key');
    await keyFileSecretBox(keyFile).seal('x');
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    expect((await stat(join(folder, 'agent'))).mode & 0o077).toBe(0);
    expect((await readFile(keyFile)).length).toBe(32);
  });

  it('seals the same secret differently each time (a fresh IV)', async () => {
    const box = keyFileSecretBox(join(folder, 'secret.key'));
    expect(await box.seal('igual')).not.toBe(await box.seal('igual'));
  });

  it('keeps using the key already on disk: a new box (a restarted agent) opens old secrets', async () => {
    const keyFile = join(folder, 'secret.key');
    const sealed = await keyFileSecretBox(keyFile).seal('persistente');
    await expect(keyFileSecretBox(keyFile).open(sealed)).resolves.toBe('persistente');
  });

  it('two boxes that start at the same moment end up with one key', async () => {
    const keyFile = join(folder, 'secret.key');
    const [first, second] = [keyFileSecretBox(keyFile), keyFileSecretBox(keyFile)];
    const [a, b] = await Promise.all([first.seal('uno'), second.seal('dos')]);
    await expect(second.open(a)).resolves.toBe('uno');
    await expect(first.open(b)).resolves.toBe('dos');
  });

  it('refuses a tampered, truncated or foreign secret with a Spanish message', async () => {
    const box = keyFileSecretBox(join(folder, 'secret.key'));
    const sealed = await box.seal('original');
    const bytes = Buffer.from(sealed.split(':')[1] ?? '', 'base64');
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1;
    await expect(box.open(`gcm1:${bytes.toString('base64')}`)).rejects.toThrow(SecretBoxError);
    await expect(box.open('gcm1:AAAA')).rejects.toThrow('no tiene un formato válido');
    await expect(box.open('texto sin sellar')).rejects.toThrow(SecretBoxError);
    const other = keyFileSecretBox(join(folder, 'other.key'));
    await expect(other.open(sealed)).rejects.toThrow('no se puede descifrar en este equipo');
  });

  it('takes back a key file others could read', async () => {
    const keyFile = join(folder, 'secret.key');
    await keyFileSecretBox(keyFile).seal('x');
    await chmod(keyFile, 0o644);
    await keyFileSecretBox(keyFile).seal('y');
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
  });

  it('refuses a key file of the wrong size instead of using it', async () => {
    const keyFile = join(folder, 'secret.key');
    await writeFile(keyFile, 'corta', { mode: 0o600 });
    await expect(keyFileSecretBox(keyFile).seal('x')).rejects.toThrow('no es válida');
  });
});
