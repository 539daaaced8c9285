import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { macroValueSchema } from '#shared/macros/definition.ts';
import { keyFileSecretBox } from '../certificates/secret-box.ts';
import { fileMacroSecretStore, machineMacroSecretStore, macroSecretsFolder } from './secrets.ts';

const folders: string[] = [];
const folder = () => {
  const made = mkdtempSync(join(tmpdir(), 'macro-secrets-'));
  folders.push(made);
  return made;
};
afterEach(() => folders.splice(0).forEach((made) => rmSync(made, { recursive: true, force: true })));

describe('macro passwords on this machine', () => {
  it('keeps a password sealed under a reference the macro schema accepts, and gives it back', async () => {
    const dir = folder();
    const store = fileMacroSecretStore(dir, keyFileSecretBox(join(dir, 'secret.key')));
    const ref = await store.save('Clave-Secreta-1');
    expect(macroValueSchema.safeParse({ kind: 'secret', ref }).success).toBe(true);
    expect(await store.reveal(ref)).toBe('Clave-Secreta-1');
  });

  it('never writes the password in clear: no file of the folder contains it', async () => {
    const dir = folder();
    const store = fileMacroSecretStore(dir, keyFileSecretBox(join(dir, 'secret.key')));
    const passwords = ['Clave-Secreta-1', 'otra contraseña ñ'];
    for (const password of passwords) await store.save(password);
    const files = readdirSync(dir);
    expect(files).toContain('macro-secrets.json');
    for (const name of files) {
      const bytes = readFileSync(join(dir, name));
      for (const password of passwords) {
        expect(bytes.includes(Buffer.from(password, 'utf8'))).toBe(false);
        expect(bytes.toString('latin1').includes(Buffer.from(password).toString('base64'))).toBe(false);
      }
    }
  });

  it('answers null for a reference this machine does not hold, or whose key is another', async () => {
    const dir = folder();
    const store = fileMacroSecretStore(dir, keyFileSecretBox(join(dir, 'secret.key')));
    const ref = await store.save('Clave');
    expect(await store.reveal('sec_desconocido123')).toBeNull();
    const otherKey = fileMacroSecretStore(dir, keyFileSecretBox(join(folder(), 'secret.key')));
    expect(await otherKey.reveal(ref)).toBeNull();
  });

  it('saves side by side without losing any', async () => {
    const dir = folder();
    const store = fileMacroSecretStore(dir, keyFileSecretBox(join(dir, 'secret.key')));
    const refs = await Promise.all(Array.from({ length: 8 }, (_, index) => store.save(`clave-${index}`)));
    expect(await Promise.all(refs.map((ref) => store.reveal(ref)))).toEqual(refs.map((_, index) => `clave-${index}`));
  });

  it('lives in AUTOASESOR_MACRO_SECRETS, else the agent data folder, else the home folder', () => {
    expect(macroSecretsFolder({ AUTOASESOR_MACRO_SECRETS: '/tmp/x' }, '/home/a')).toBe('/tmp/x');
    expect(macroSecretsFolder({ AUTOASESOR_AGENT_DATA: '/srv/agent' }, '/home/a')).toBe(join('/srv/agent', 'macros'));
    expect(macroSecretsFolder({}, '/home/a')).toBe(join('/home/a', '.autoasesor-macros'));
    const dir = folder();
    expect(machineMacroSecretStore({ AUTOASESOR_MACRO_SECRETS: dir })).toBeDefined();
  });
});
