import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ephemeralSecretsBox, loadSecretsBox, secretsBoxWithKey, SecretsError } from './secrets.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'secrets-test-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('secrets box', () => {
  it('seals to gcm1:, never shows the plain text, and opens what it sealed', () => {
    const box = ephemeralSecretsBox();
    const sealed = box.seal('1//refresh-token-ñ');
    expect(sealed).toMatch(/^gcm1:[A-Za-z0-9+/=]+$/);
    expect(sealed).not.toContain('refresh');
    expect(box.seal('1//refresh-token-ñ')).not.toBe(sealed);
    expect(box.open(sealed)).toBe('1//refresh-token-ñ');
  });

  it('refuses a tampered text, another key and a wrong format with a SecretsError', () => {
    const box = ephemeralSecretsBox();
    const sealed = box.seal('secreto');
    const bytes = Buffer.from(sealed.slice(5), 'base64');
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 1) ^ 1, bytes.length - 1);
    expect(() => box.open(`gcm1:${bytes.toString('base64')}`)).toThrow(SecretsError);
    expect(() => ephemeralSecretsBox().open(sealed)).toThrow(SecretsError);
    expect(() => box.open('secreto')).toThrow(SecretsError);
    expect(() => box.open('gcm1:AAAA')).toThrow(SecretsError);
  });

  it('takes SECRETS_KEY as base64 of 32 bytes and refuses anything else', async () => {
    const key = randomBytes(32);
    const box = await loadSecretsBox({ key: key.toString('base64'), keyFile: join(dir, 'unused.key') });
    expect(secretsBoxWithKey(key).open(box.seal('x'))).toBe('x');
    await expect(loadSecretsBox({ key: randomBytes(16).toString('base64') })).rejects.toThrow(/SECRETS_KEY no es válida/);
    await expect(loadSecretsBox({ key: 'no es base64 de nada!' })).rejects.toThrow(SecretsError);
    await expect(readFile(join(dir, 'unused.key'))).rejects.toThrow();
  });

  it('creates the key file 0600 in a 0700 folder once, and reads the same key after a restart', async () => {
    const keyFile = join(dir, 'data', 'secrets.key');
    const first = await loadSecretsBox({ keyFile });
    const sealed = first.seal('token');
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'data'))).mode & 0o777).toBe(0o700);
    const again = await loadSecretsBox({ keyFile });
    expect(again.open(sealed)).toBe('token');
  });

  it('refuses a key file of the wrong size instead of making a new key', async () => {
    const keyFile = join(dir, 'secrets.key');
    await writeFile(keyFile, 'corto', { mode: 0o600 });
    await expect(loadSecretsBox({ keyFile })).rejects.toThrow(SecretsError);
    expect(await readFile(keyFile, 'utf8')).toBe('corto');
  });
});
