/**
 * Passwords typed while recording a macro (issue 41). They never go into the macro: it keeps
 * { kind: 'secret', ref } and the password stays on the machine that recorded it, sealed in one file
 * of a folder of its own: AES-256-GCM under a random key in a 0600 file (certificates/secret-box.ts,
 * the agent's box). The key-file box and not Electron's safeStorage because the player runs in the
 * robot's child process, where there is no Electron to ask.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { keyFileSecretBox, type SecretBox } from '../certificates/secret-box.ts';

/** What a step says when its password is not on this machine (common.md's run semantics). */
export const SECRET_MISSING_MESSAGE = 'La contraseña de este paso solo está guardada en el equipo donde se grabó el robot';

export interface MacroSecretStore {
  /** Keeps the password sealed and answers its reference (what the macro holds): `ref`, or a new one. */
  save(password: string, ref?: string): Promise<string>;
  /** The password of a reference, or null when this machine does not hold it (or cannot open it). */
  reveal(ref: string): Promise<string | null>;
}

interface SecretsFile {
  version: 1;
  secrets: Record<string, string>;
}

/** A reference the macro schema accepts (/^[A-Za-z0-9_-]{8,64}$/): 'sec_' + 24 random characters. */
export function newSecretRef(): string {
  return `sec_${randomBytes(18).toString('base64url')}`;
}

/** `folder`/macro-secrets.json, each password sealed by `box`. Writes go one at a time, whole files renamed into place. */
export function fileMacroSecretStore(folder: string, box: SecretBox): MacroSecretStore {
  const file = join(folder, 'macro-secrets.json');
  let writing: Promise<unknown> = Promise.resolve();
  const read = async (): Promise<SecretsFile> => {
    try {
      const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<SecretsFile>;
      return { version: 1, secrets: typeof parsed.secrets === 'object' && parsed.secrets !== null ? parsed.secrets : {} };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, secrets: {} };
      throw error;
    }
  };
  return {
    save(password, ref = newSecretRef()) {
      const saved = writing.then(async () => {
        const sealed = await box.seal(password);
        const contents = await read();
        contents.secrets[ref] = sealed;
        await mkdir(folder, { recursive: true, mode: 0o700 });
        const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
        await writeFile(draft, JSON.stringify(contents), { mode: 0o600 });
        await rename(draft, file);
        return ref;
      });
      writing = saved.catch(() => undefined);
      return saved;
    },
    async reveal(ref) {
      const sealed = (await read().catch(() => null))?.secrets[ref];
      if (sealed === undefined) return null;
      try {
        return await box.open(sealed);
      } catch {
        return null;
      }
    },
  };
}

/**
 * This machine's folder of macro passwords: AUTOASESOR_MACRO_SECRETS when set, the agent's data folder's
 * 'macros' when AUTOASESOR_AGENT_DATA is set, else ~/.autoasesor-macros. The robot's child process
 * inherits the host's environment, so the recorder and the player agree on it.
 */
export function macroSecretsFolder(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  if (env.AUTOASESOR_MACRO_SECRETS) return resolve(env.AUTOASESOR_MACRO_SECRETS);
  if (env.AUTOASESOR_AGENT_DATA) return join(resolve(env.AUTOASESOR_AGENT_DATA), 'macros');
  return join(home, '.autoasesor-macros');
}

/** The store of this machine (see macroSecretsFolder), its key beside it. */
export function machineMacroSecretStore(env: NodeJS.ProcessEnv = process.env): MacroSecretStore {
  const folder = macroSecretsFolder(env);
  return fileMacroSecretStore(folder, keyFileSecretBox(join(folder, 'secret.key')));
}
