/**
 * The chosen folder of .p12/.pfx files (PKCS#12): every such file directly in it (not in subfolders).
 * A file opens with an empty password or with the one the user typed once (UnlockCertificateFile);
 * only certificates whose private key comes in the same file are listed, because only those can sign
 * anyone in. Keys are read only to match them with their certificates and are never kept or returned.
 *
 * node-forge reads PKCS#12 (PBES2/AES as OpenSSL 3 writes, and the 3DES/RC2 files older Windows and
 * Firefox exports carry). It cannot build a certificate object for an EC key or an unusual signature,
 * so the certificate's DER is taken from its bag and described by describeCertificate; keys are
 * matched by node:crypto (X509Certificate.checkPrivateKey), which knows RSA and EC alike.
 */
import { createHash, createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import forge from 'node-forge';
import type { CertificateProblem, LocalCertificate } from '#shared/certificates/certificate.ts';
import { BridgeFailure } from '../bridge/context.ts';
import { CertificateReadError, describeClientCertificate, type StoreListing } from './x509.ts';

/** A .p12 is a few kilobytes; anything far larger is not one, and is not read into memory. */
const MAX_FILE_BYTES = 1024 * 1024;

export type Pkcs12Opening =
  | { kind: 'opened'; certificates: LocalCertificate[]; problems: CertificateProblem[] }
  /** The password (or the empty one) does not open it. */
  | { kind: 'locked' }
  | { kind: 'unreadable' };

export const isPkcs12FileName = (name: string) => /\.(p12|pfx)$/i.test(name);

export const unreadableMessage = (file: string) => `El archivo ${file} no es un certificado .p12/.pfx válido.`;
export const WRONG_PASSWORD_MESSAGE = 'La contraseña no abre este certificado.';

/**
 * Opens PKCS#12 bytes. `password` null tries the empty password both ways tools write it (as an empty
 * BMPString, and as no password at all, which some Windows exports use).
 */
export function openPkcs12(bytes: Uint8Array, password: string | null, fileName: string): Pkcs12Opening {
  const contents = readPkcs12(bytes, password);
  if (contents.kind !== 'read') return contents;
  const opening: Pkcs12Opening = { kind: 'opened', certificates: [], problems: [] };
  for (const der of contents.certificates) {
    try {
      if (!hasKeyIn(der, contents.keys)) continue;
      const certificate = describeClientCertificate(der, 'pkcs12', fileName);
      if (certificate) opening.certificates.push(certificate);
    } catch (error) {
      if (!(error instanceof CertificateReadError)) throw error;
      opening.problems.push({ code: 'UNREADABLE', store: 'pkcs12', source: fileName, message: error.message });
    }
  }
  return opening;
}

export type Pkcs12Contents =
  /** Every certificate's DER and every private key in the file, in the file's order. */
  | { kind: 'read'; certificates: Uint8Array[]; keys: KeyObject[] }
  | { kind: 'locked' }
  | { kind: 'unreadable' };

/** The certificates and decrypted keys of PKCS#12 bytes (`password` as openPkcs12 takes it). */
export function readPkcs12(bytes: Uint8Array, password: string | null): Pkcs12Contents {
  let pfx: forge.pkcs12.Pkcs12Pfx | null = null;
  let locked = false;
  for (const attempt of password === null ? ['', undefined] : [password]) {
    try {
      const asn1 = forge.asn1.fromDer(Buffer.from(bytes).toString('binary'), false);
      pfx = attempt === undefined ? forge.pkcs12.pkcs12FromAsn1(asn1, false) : forge.pkcs12.pkcs12FromAsn1(asn1, false, attempt);
      break;
    } catch (error) {
      // forge says so in its messages: 'MAC could not be verified. Invalid password?', 'Unable to decrypt ...'.
      if (!(error instanceof Error) || !/password|decrypt/i.test(error.message)) return { kind: 'unreadable' };
      locked = true;
    }
  }
  if (!pfx) return locked ? { kind: 'locked' } : { kind: 'unreadable' };

  const bags = pfx.safeContents.flatMap((contents) => contents.safeBags);
  const contents: Pkcs12Contents = { kind: 'read', certificates: [], keys: [] };
  try {
    for (const bag of bags) {
      if (bag.type === forge.pki.oids.certBag) contents.certificates.push(certificateDer(bag));
      else if (bag.type === forge.pki.oids.pkcs8ShroudedKeyBag || bag.type === forge.pki.oids.keyBag) contents.keys.push(privateKeyOf(bag));
    }
  } catch {
    return { kind: 'unreadable' };
  }
  return contents;
}

function certificateDer(bag: forge.pkcs12.Bag): Uint8Array {
  const asn1 = bag.cert ? forge.pki.certificateToAsn1(bag.cert) : bag.asn1;
  if (!asn1) throw new Error('certificate bag without a certificate');
  return new Uint8Array(Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary'));
}

function privateKeyOf(bag: forge.pkcs12.Bag): KeyObject {
  const info = bag.key ? forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(bag.key)) : bag.asn1;
  if (!info) throw new Error('key bag without a key');
  return createPrivateKey({ key: Buffer.from(forge.asn1.toDer(info).getBytes(), 'binary'), format: 'der', type: 'pkcs8' });
}

function hasKeyIn(der: Uint8Array, keys: KeyObject[]): boolean {
  try {
    return privateKeyFor(der, keys) !== undefined;
  } catch {
    return keys.length > 0; // describeCertificate will say what is wrong with it
  }
}

/** The key among `keys` that belongs to the certificate; throws when the certificate cannot be parsed. */
export function privateKeyFor(der: Uint8Array, keys: readonly KeyObject[]): KeyObject | undefined {
  const certificate = new X509Certificate(der);
  return keys.find((key) => key.asymmetricKeyType === certificate.publicKey.asymmetricKeyType && certificate.checkPrivateKey(key));
}

/**
 * A file name as UnlockCertificateFile takes it: a plain .p12/.pfx name inside the folder, never a
 * path ('../x', '/etc/x', 'sub/x'). Returns its full path; throws BAD_ARGS or NOT_FOUND in Spanish.
 */
export async function folderFilePath(folder: string, file: string): Promise<string> {
  const plain = file === basename(file) && !/[/\\\0]/.test(file) && file !== '.' && file !== '..';
  if (!plain || !isPkcs12FileName(file)) {
    throw new BridgeFailure('BAD_ARGS', 'Indica solo el nombre de un archivo .p12 o .pfx de la carpeta de certificados.');
  }
  const path = join(folder, file);
  try {
    if ((await stat(path)).isFile()) return path;
  } catch {
    // fall through: not there
  }
  throw new BridgeFailure('NOT_FOUND', `No se encuentra el archivo ${file} en la carpeta de certificados.`);
}

interface CachedOpening {
  size: number;
  modifiedMs: number;
  opening: Pkcs12Opening;
}

/**
 * Reads the folder. Opening a file costs ~100 ms of PBKDF2 in JavaScript, so each outcome (per file
 * and password) is kept until the file's size or modification time changes.
 */
export class Pkcs12Folder {
  private readonly cache = new Map<string, CachedOpening>();

  /** `passwordFor` gives the stored password of a file's full path, null when none is stored. */
  async list(folder: string, passwordFor: (path: string) => Promise<string | null>): Promise<StoreListing> {
    const reading: StoreListing = { certificates: [], problems: [] };
    let names: string[];
    try {
      const entries = await readdir(folder, { withFileTypes: true });
      names = entries.filter((entry) => !entry.isDirectory() && isPkcs12FileName(entry.name)).map((entry) => entry.name).sort();
    } catch {
      reading.problems.push({ code: 'STORE_UNAVAILABLE', store: 'pkcs12', source: folder, message: `No se puede leer la carpeta de certificados ${folder}.` });
      return reading;
    }
    for (const name of names) {
      const path = join(folder, name);
      const stored = await passwordFor(path);
      let opening = await this.open(path, stored);
      // A file replaced by one without a password still opens.
      if (opening.kind === 'locked' && stored !== null) opening = await this.open(path, null);
      if (opening.kind === 'opened') {
        reading.certificates.push(...opening.certificates);
        reading.problems.push(...opening.problems);
      } else if (opening.kind === 'unreadable') {
        reading.problems.push({ code: 'UNREADABLE', store: 'pkcs12', source: name, message: unreadableMessage(name) });
      } else if (stored !== null) {
        reading.problems.push({ code: 'WRONG_PASSWORD', store: 'pkcs12', source: name, message: `La contraseña guardada ya no abre ${name}: vuelve a escribirla.` });
      } else {
        reading.problems.push({ code: 'PASSWORD_REQUIRED', store: 'pkcs12', source: name, message: `${name} tiene contraseña: escríbela para ver sus certificados.` });
      }
    }
    return reading;
  }

  /** Opens one file with a password (null: the empty one); a file that cannot be read is 'unreadable'. */
  async open(path: string, password: string | null): Promise<Pkcs12Opening> {
    let size: number;
    let modifiedMs: number;
    try {
      ({ size, mtimeMs: modifiedMs } = await stat(path));
    } catch {
      return { kind: 'unreadable' };
    }
    const passwordHash = createHash('sha256').update(password === null ? '\0none' : `=${password}`).digest('hex');
    const cacheKey = `${path}\0${passwordHash}`;
    const cached = this.cache.get(cacheKey);
    if (cached && cached.size === size && cached.modifiedMs === modifiedMs) return cached.opening;

    let opening: Pkcs12Opening;
    if (size > MAX_FILE_BYTES) {
      opening = { kind: 'unreadable' };
    } else {
      try {
        opening = openPkcs12(await readFile(path), password, basename(path));
      } catch {
        opening = { kind: 'unreadable' };
      }
    }
    this.cache.set(cacheKey, { size, modifiedMs, opening });
    return opening;
  }
}
