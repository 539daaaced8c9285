/**
 * Test-only: a real NSS database (the one Chrome keeps in ~/.pki/nssdb) made with NSS's own tools,
 * certutil and pk12util (Debian package libnss3-tools). Certificates imported from a .p12 come with
 * their key, so certutil lists them with the 'u' (user) trust flag, as on a real PC.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createPkcs12, createPkcs12Bundle, type TestCertificate } from './spanish-certificates.ts';

const run = promisify(execFile);

/** Whether certutil and pk12util can be run here. */
export function nssToolsAvailable(): boolean {
  return ['certutil', 'pk12util'].every((tool) => {
    const result = spawnSync(tool, ['-H'], { stdio: 'ignore' });
    return !result.error;
  });
}

export interface NssDatabase {
  /** As certutil takes it: 'sql:/tmp/...'. */
  database: string;
  folder: string;
  /** Imports a certificate with its key (through a .p12, the way a user does). */
  importWithKey(certificate: TestCertificate, nickname?: string): Promise<void>;
  /** Imports many certificates with their keys through one .p12 (nicknames made by pk12util from each CN). */
  importAllWithKeys(certificates: TestCertificate[]): Promise<void>;
  /** Adds a certificate alone, no key (a CA, someone else's certificate). */
  addCertificate(certificate: TestCertificate, nickname: string, trust?: string): Promise<void>;
  remove(): Promise<void>;
}

/** An empty database with no password, in a new folder under `parent`. */
export async function createNssDatabase(parent: string): Promise<NssDatabase> {
  const folder = await mkdtemp(join(parent, 'nssdb-'));
  const database = `sql:${folder}`;
  await run('certutil', ['-N', '--empty-password', '-d', database]);
  let files = 0;
  return {
    database,
    folder,
    async importWithKey(certificate, nickname) {
      const file = join(folder, `import-${(files += 1)}.p12`);
      await writeFile(file, createPkcs12(certificate, 'importar', nickname ? { friendlyName: nickname } : {}));
      await run('pk12util', ['-i', file, '-d', database, '-W', 'importar']);
      await rm(file);
    },
    async importAllWithKeys(certificates) {
      const file = join(folder, `import-${(files += 1)}.p12`);
      await writeFile(file, createPkcs12Bundle(certificates, 'importar'));
      await run('pk12util', ['-i', file, '-d', database, '-W', 'importar'], { maxBuffer: 16 * 1024 * 1024 });
      await rm(file);
    },
    async addCertificate(certificate, nickname, trust = ',,') {
      const file = join(folder, `add-${(files += 1)}.der`);
      await writeFile(file, certificate.der);
      await run('certutil', ['-A', '-n', nickname, '-t', trust, '-i', file, '-d', database]);
      await rm(file);
    },
    remove: () => rm(folder, { recursive: true, force: true }),
  };
}
