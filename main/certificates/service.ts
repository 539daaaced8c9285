/**
 * The certificates of this PC, as the bridge handlers see them (CertificateSource): the OS store of the
 * platform (Windows CurrentUser\My, the macOS keychain, the NSS database on Linux) plus the chosen folder
 * of .p12/.pfx files. One certificate found in both is listed once (by fingerprint); the list is sorted
 * by its CN. The folder and the files' passwords (sealed by a SecretBox, never in the clear) are kept in
 * a small JSON file in the app's data folder. A robot's browser gets one certificate with its key
 * (clientCertificate), re-wrapped in memory: see client-certificate.ts.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { z } from 'zod/mini';
import type { LocalCertificate } from '#shared/certificates/certificate.ts';
import { BridgeFailure, type CertificateSource } from '../bridge/context.ts';
import { CERTIFICATE_NOT_HERE_MESSAGE, exportClientCertificate } from './client-certificate.ts';
import { exportFromOsStore } from './client-certificate-stores.ts';
import { runCommand, type RunCommand } from './command.ts';
import { listMacosCertificates } from './macos.ts';
import { NssStore } from './nss.ts';
import { folderFilePath, Pkcs12Folder, unreadableMessage, WRONG_PASSWORD_MESSAGE } from './pkcs12-folder.ts';
import type { SecretBox } from './secret-box.ts';
import { listWindowsCertificates } from './windows.ts';
import type { StoreListing } from './x509.ts';

export interface CertificateServiceOptions {
  /** Picks the OS store: win32 -> Windows, darwin -> macOS, linux -> NSS; anything else has none. */
  platform: NodeJS.Platform;
  /** The JSON file with the chosen folder and the sealed passwords. */
  settingsFile: string;
  box: SecretBox;
  /** The NSS database read on Linux, e.g. 'sql:/home/ana/.pki/nssdb'. */
  nssDatabase: string;
  /** Runs PowerShell / security (tests give recorded outputs). */
  runCommand?: RunCommand;
}

const settingsSchema = z.object({
  folder: z.nullable(z.string()),
  /** Full path of a .p12/.pfx file -> its password, sealed by the box. */
  passwords: z.record(z.string(), z.string()),
});
type CertificateSettings = z.infer<typeof settingsSchema>;
const NO_SETTINGS: CertificateSettings = { folder: null, passwords: {} };

export function createCertificateService(options: CertificateServiceOptions): CertificateSource {
  const files = new Pkcs12Folder();
  const readOsStore = osStoreReader(options);
  // Settings are read, changed and written one change at a time (a folder chosen while a password is saved).
  let queue: Promise<unknown> = Promise.resolve();
  const change = <T>(update: (settings: CertificateSettings) => Promise<{ settings: CertificateSettings; result: T }>): Promise<T> => {
    const next = queue.then(async () => {
      const { settings, result } = await update(await readSettings(options.settingsFile));
      await writeSettings(options.settingsFile, settings);
      return result;
    });
    queue = next.catch(() => undefined);
    return next;
  };

  const source: CertificateSource = {
    async list() {
      const settings = await readSettings(options.settingsFile);
      const passwordFor = async (path: string) => {
        const sealed = settings.passwords[path];
        if (sealed === undefined) return null;
        // A password this box cannot open (its key was lost) is as good as none: the file asks again.
        return options.box.open(sealed).catch(() => null);
      };
      const [store, folder] = await Promise.all([
        readOsStore(),
        settings.folder === null ? Promise.resolve<StoreListing>({ certificates: [], problems: [] }) : files.list(settings.folder, passwordFor),
      ]);
      return {
        certificates: sortedByName(uniqueByFingerprint([...store.certificates, ...folder.certificates])),
        problems: [...store.problems, ...folder.problems],
        folder: settings.folder,
      };
    },

    async setFolder(folder) {
      const chosen = folder === null ? null : await existingFolder(folder);
      return change(async (settings) => ({
        // Passwords of files outside the folder in use are not kept.
        settings: { folder: chosen, passwords: chosen === null ? {} : keepInside(settings.passwords, chosen) },
        result: chosen,
      }));
    },

    async unlock(file, password) {
      const { folder } = await readSettings(options.settingsFile);
      if (folder === null) throw new BridgeFailure('NOT_FOUND', 'Elige primero la carpeta de los certificados .p12/.pfx.');
      const path = await folderFilePath(folder, file);
      const opening = await files.open(path, password);
      if (opening.kind === 'locked') throw new BridgeFailure('WRONG_PASSWORD', WRONG_PASSWORD_MESSAGE);
      if (opening.kind === 'unreadable') throw new BridgeFailure('FAILED', unreadableMessage(file));
      const sealed = await options.box.seal(password);
      await change(async (settings) => ({
        settings: settings.folder === folder ? { ...settings, passwords: { ...settings.passwords, [path]: sealed } } : settings,
        result: undefined,
      }));
      return opening.certificates.length;
    },

    async clientCertificate(fingerprint) {
      const certificate = (await source.list()).certificates.find((candidate) => candidate.fingerprint === fingerprint);
      if (certificate === undefined) throw new Error(CERTIFICATE_NOT_HERE_MESSAGE);
      return exportClientCertificate(certificate, {
        pkcs12File: async (file) => {
          const { folder, passwords } = await readSettings(options.settingsFile);
          if (folder === null) throw new Error(CERTIFICATE_NOT_HERE_MESSAGE);
          const path = await folderFilePath(folder, file);
          const sealed = passwords[path];
          // A password this box cannot open is as good as none, as in list().
          return { bytes: await readFile(path), password: sealed === undefined ? null : await options.box.open(sealed).catch(() => null) };
        },
        exportFromStore: (listed, password) => exportFromOsStore(listed, password, { run: options.runCommand ?? runCommand, nssDatabase: options.nssDatabase }),
      });
    },
  };
  return source;
}

function osStoreReader(options: CertificateServiceOptions): () => Promise<StoreListing> {
  const run = options.runCommand ?? runCommand;
  switch (options.platform) {
    case 'win32':
      return () => listWindowsCertificates(run);
    case 'darwin':
      return () => listMacosCertificates(run);
    case 'linux': {
      const store = new NssStore({ database: options.nssDatabase });
      return () => store.list();
    }
    default:
      return async () => ({ certificates: [], problems: [] });
  }
}

function uniqueByFingerprint(certificates: LocalCertificate[]): LocalCertificate[] {
  const byFingerprint = new Map<string, LocalCertificate>();
  for (const certificate of certificates) if (!byFingerprint.has(certificate.fingerprint)) byFingerprint.set(certificate.fingerprint, certificate);
  return [...byFingerprint.values()];
}

const byName = new Intl.Collator('es', { sensitivity: 'base', numeric: true });
function sortedByName(certificates: LocalCertificate[]): LocalCertificate[] {
  return certificates.sort((a, b) => byName.compare(a.commonName, b.commonName) || a.fingerprint.localeCompare(b.fingerprint));
}

async function existingFolder(folder: string): Promise<string> {
  if (!isAbsolute(folder)) {
    throw new BridgeFailure('BAD_ARGS', 'Indica la ruta completa de la carpeta (por ejemplo /home/ana/certificados o C:\\Certificados).');
  }
  const path = resolve(folder);
  try {
    if ((await stat(path)).isDirectory()) return path;
  } catch {
    // fall through: not there
  }
  throw new BridgeFailure('NOT_FOUND', `No existe la carpeta ${path}.`);
}

function keepInside(passwords: Record<string, string>, folder: string): Record<string, string> {
  return Object.fromEntries(Object.entries(passwords).filter(([path]) => relative(folder, dirname(path)) === ''));
}

async function readSettings(file: string): Promise<CertificateSettings> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return NO_SETTINGS;
    throw error;
  }
  try {
    const parsed = settingsSchema.safeParse(JSON.parse(text));
    // A damaged file (edited by hand, cut short) starts over: the user chooses the folder again.
    return parsed.success ? parsed.data : NO_SETTINGS;
  } catch {
    return NO_SETTINGS;
  }
}

/** Written whole under another name and renamed into place (0600: it holds sealed passwords). */
async function writeSettings(file: string, settings: CertificateSettings): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const draft = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(draft, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  await rename(draft, file);
}

/** The NSS database read on Linux: AUTOASESOR_NSS_DB, else Chrome's own (~/.pki/nssdb). */
export function nssDatabaseFrom(env: NodeJS.ProcessEnv, home: string): string {
  return env.AUTOASESOR_NSS_DB || `sql:${join(home, '.pki', 'nssdb')}`;
}
