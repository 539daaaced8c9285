/**
 * Each OS store's export of a certificate with its private key, as PKCS#12 bytes under a one-off
 * password (client-certificate.ts picks the one identity out of it). See there which keys can be
 * exported at all.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LocalCertificate } from '#shared/certificates/certificate.ts';
import { CommandError, type RunCommand } from './command.ts';
import { CERTIFICATE_NOT_HERE_MESSAGE, notExportableMessage } from './client-certificate.ts';
import { SECURITY } from './macos.ts';
import { POWERSHELL } from './windows.ts';

export interface StoreExportOptions {
  run: RunCommand;
  /** The NSS database, as certutil takes it ('sql:/home/ana/.pki/nssdb'). */
  nssDatabase: string;
  /** The pk12util program (NSS's tools); from PATH by default. */
  pk12util?: string;
}

/** The export of a certificate listed from an OS store (not the .p12 folder). Throws a Spanish Error. */
export function exportFromOsStore(certificate: LocalCertificate, password: string, options: StoreExportOptions): Promise<Uint8Array> {
  switch (certificate.store) {
    case 'nss':
      return exportFromNss(options.nssDatabase, certificate.location, password, options);
    case 'windows':
      return exportFromWindows(certificate.location, password, options.run);
    case 'macos':
      return exportFromKeychain(password, options.run);
    case 'pkcs12':
      throw new Error('Los certificados de la carpeta .p12/.pfx se leen de su archivo');
  }
}

/**
 * A fresh folder only this user can open (mkdtemp makes it 0700), removed with whatever is in it when
 * `use` ends, however it ends.
 */
export async function withPrivateFolder<T>(use: (folder: string) => Promise<T>): Promise<T> {
  const folder = await mkdtemp(join(tmpdir(), 'autoasesor-export-'));
  try {
    return await use(folder);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function run(runCommand: RunCommand, file: string, args: readonly string[], missing: string) {
  try {
    return await runCommand(file, args);
  } catch (error) {
    if (error instanceof CommandError && error.failure === 'not-found') throw new Error(missing);
    throw error;
  }
}

const firstLine = (text: string) => text.trim().split(/\r?\n/)[0]?.trim().slice(0, 300) ?? '';

/**
 * NSS: `pk12util -o` exports the nickname's certificate, its chain and its key. pk12util writes a
 * PKCS#12 only to a file, never to stdout, so a temporary file cannot be avoided: it goes into a fresh
 * 0700 folder, is encrypted under the one-off password, and is read back and deleted at once.
 * `-K ''` answers the database's password prompt (Chrome's has none); stdin stays closed otherwise.
 */
/** NSS's own token, as NSS names it in a qualified nickname ('token:nickname'). */
const NSS_INTERNAL_TOKEN = 'NSS Certificate DB';

/**
 * NSS reads what comes before a ':' in a nickname as the token's name, so a representative's
 * '… (R: B12345674)' is looked for in a token called '… (R' and never found. Naming the internal token
 * first keeps the whole nickname as the certificate's.
 */
export function qualifiedNickname(nickname: string): string {
  return nickname.includes(':') ? `${NSS_INTERNAL_TOKEN}:${nickname}` : nickname;
}

export async function exportFromNss(database: string, nickname: string, password: string, options: { run: RunCommand; pk12util?: string }): Promise<Uint8Array> {
  const pk12util = options.pk12util ?? 'pk12util';
  return withPrivateFolder(async (folder) => {
    const file = join(folder, 'certificado.p12');
    const output = await run(options.run, pk12util, ['-o', file, '-n', qualifiedNickname(nickname), '-d', database, '-W', password, '-K', ''],
      'No se encuentra pk12util: instala el paquete libnss3-tools para usar los certificados de Chrome y Firefox en Linux.');
    if (output.exitCode !== 0) {
      const reason = firstLine(`${output.stderr}\n${output.stdout}`);
      if (/UNABLE_TO_EXPORT_KEY|unable to export|not extractable/i.test(reason)) throw new Error(notExportableMessage(`el almacén NSS no la entrega (${reason}).`));
      if (/could not find|not found|NOT_FOUND/i.test(reason)) throw new Error(`${CERTIFICATE_NOT_HERE_MESSAGE} (${nickname}).`);
      throw new Error(`No se puede exportar el certificado del almacén NSS: ${reason || `pk12util terminó con el código ${output.exitCode}`}`);
    }
    return new Uint8Array(await readFile(file));
  });
}

/**
 * Windows: the certificate's Export as PFX, base64 on stdout. X509Certificate2.Export rather than
 * Export-PfxCertificate: the same CryptoAPI export, but its bytes come back through the pipe and never
 * touch the disk. A key imported as not exportable makes it throw: exit code 3.
 */
export function windowsExportScript(thumbprint: string, password: string): string {
  if (!/^[0-9A-F]{40}$/i.test(thumbprint) || !/^[0-9a-f]+$/.test(password)) throw new Error('Huella o contraseña de exportación no válidas');
  return [
    "$ErrorActionPreference = 'Stop'",
    `$certificate = Get-Item -LiteralPath 'Cert:\\CurrentUser\\My\\${thumbprint.toUpperCase()}'`,
    `try { $bytes = $certificate.Export([Security.Cryptography.X509Certificates.X509ContentType]::Pfx, '${password}') }`,
    'catch { [Console]::Error.WriteLine($_.Exception.Message); exit 3 }',
    '[Convert]::ToBase64String($bytes)',
  ].join('; ');
}

export async function exportFromWindows(thumbprint: string, password: string, runCommand: RunCommand): Promise<Uint8Array> {
  const output = await run(runCommand, POWERSHELL, ['-NoProfile', '-NonInteractive', '-Command', windowsExportScript(thumbprint, password)], 'No se encontró PowerShell para exportar el certificado.');
  if (output.exitCode === 3) {
    throw new Error(notExportableMessage('Windows la guardó como no exportable. Vuelve a importar el certificado marcando «Marcar esta clave como exportable».'));
  }
  if (output.exitCode !== 0) {
    const reason = firstLine(output.stderr);
    if (/Cannot find path|No se encuentra la ruta|ItemNotFound/i.test(reason)) throw new Error(CERTIFICATE_NOT_HERE_MESSAGE);
    throw new Error(`No se puede exportar el certificado del almacén de Windows: ${reason || `PowerShell terminó con el código ${output.exitCode}`}`);
  }
  return new Uint8Array(Buffer.from(output.stdout.trim(), 'base64'));
}

/**
 * macOS: `security export -t identities` exports every identity of the keychains (it cannot name one);
 * macOS asks the user to allow access to each private key (a keychain dialog, once per key unless
 * 'Permitir siempre'), and leaves out keys that may not leave the keychain. Written to a file in a
 * private folder (`-o`; binary on stdout would not survive the text pipe), encrypted under the
 * one-off password, read back and deleted at once.
 */
export async function exportFromKeychain(password: string, runCommand: RunCommand): Promise<Uint8Array> {
  return withPrivateFolder(async (folder) => {
    const file = join(folder, 'identidades.p12');
    const output = await run(runCommand, SECURITY, ['export', '-t', 'identities', '-f', 'pkcs12', '-P', password, '-o', file], 'No se encontró la herramienta security de macOS.');
    if (output.exitCode !== 0) {
      const reason = firstLine(output.stderr);
      if (/cancel/i.test(reason)) throw new Error('Se ha denegado el acceso al llavero: permite a AutoAsesor usar la clave del certificado.');
      throw new Error(`No se puede exportar el certificado del llavero de macOS: ${reason || `security terminó con el código ${output.exitCode}`}`);
    }
    return new Uint8Array(await readFile(file));
  });
}
