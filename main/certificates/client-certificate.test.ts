/**
 * A robot's browser gets one certificate with its key as a PKCS#12 that Node's TLS (what Playwright's
 * clientCertificates uses) loads: from a .p12/.pfx folder, a real NSS database (pk12util), and the
 * Windows and macOS exports as their tools would give them (recorded: those tools do not run here).
 */
import { createHash } from 'node:crypto';
import { createSecureContext } from 'node:tls';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import forge from 'node-forge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { singleIdentityPkcs12, writePkcs12 } from './client-certificate.ts';
import { exportFromKeychain, exportFromWindows, windowsExportScript } from './client-certificate-stores.ts';
import type { CommandOutput, RunCommand } from './command.ts';
import { readPkcs12 } from './pkcs12-folder.ts';
import { keyFileSecretBox } from './secret-box.ts';
import { createCertificateService, type CertificateServiceOptions } from './service.ts';
import { createNssDatabase, nssToolsAvailable } from './testing/nss-database.ts';
import { createPkcs12, createPkcs12Bundle, createTestCertificate, privateKeyPem, type TestCertificate } from './testing/spanish-certificates.ts';

const ana = createTestCertificate({ keyType: 'ec', givenName: 'ANA', surnames: 'MARTIN SANZ', nif: '78816596N' });
const luis = createTestCertificate({ keyType: 'rsa', givenName: 'LUIS', surnames: 'PEREZ GIL', nif: '12345678Z' });
const someoneElse = createTestCertificate({ keyType: 'ec', givenName: 'EVA', surnames: 'RUIZ', nif: '00000000T' });

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'client-certificate-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/**
 * A PKCS#12 with 3DES (pbeWithSHAAnd3-KeyTripleDES-CBC) as forge writes it. forge re-encodes the
 * certificate from its parsed fields (the test CA's ECDSA signature gains a NULL parameter), so the
 * identity it holds is that re-encoding: same key, other bytes and fingerprint.
 */
function legacyExport(holder: TestCertificate, password: string): { bytes: Uint8Array; identity: TestCertificate } {
  const certificate = forge.pki.certificateFromPem(holder.pem);
  const der = new Uint8Array(Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(certificate)).getBytes(), 'binary'));
  const key = forge.pki.privateKeyFromPem(privateKeyPem(holder));
  const bytes = forge.asn1.toDer(forge.pkcs12.toPkcs12Asn1(key, [certificate], password, { algorithm: '3des' })).getBytes();
  return { bytes: new Uint8Array(Buffer.from(bytes, 'binary')), identity: { ...holder, der, fingerprint: createHash('sha256').update(der).digest('hex') } };
}

/** What a robot's browser gets must load in Node's TLS and hold exactly the chosen certificate and its key. */
function expectOnlyIdentity(pfx: Buffer, passphrase: string, holder: TestCertificate) {
  expect(() => createSecureContext({ pfx, passphrase })).not.toThrow();
  expect(() => createSecureContext({ pfx, passphrase: 'otra' })).toThrow(/mac verify failure/);
  const contents = readPkcs12(pfx, passphrase);
  if (contents.kind !== 'read') throw new Error(`not readable: ${contents.kind}`);
  expect(contents.certificates.map((der) => Buffer.from(der).toString('hex'))).toEqual([Buffer.from(holder.der).toString('hex')]);
  expect(contents.keys).toHaveLength(1);
  expect(contents.keys[0]?.export({ type: 'pkcs8', format: 'pem' })).toBe(privateKeyPem(holder));
  // The one-off passphrase is not something guessable nor the store's.
  expect(passphrase).toMatch(/^[0-9a-f]{48}$/);
}

describe('singleIdentityPkcs12: one identity out of an export, re-wrapped', () => {
  it('takes the chosen certificate and its key out of a bundle of several (EC and RSA), leaving the others and the chain', async () => {
    const bundle = createPkcs12Bundle([ana, luis], 'clave-del-almacen', { extraCertificates: [someoneElse] });
    for (const holder of [ana, luis]) {
      const found = await singleIdentityPkcs12(bundle, 'clave-del-almacen', holder.fingerprint);
      if (found.kind !== 'found') throw new Error(found.kind);
      expectOnlyIdentity(found.certificate.pfx, found.certificate.passphrase, holder);
    }
  });

  it('gives a new passphrase every time', async () => {
    const bundle = createPkcs12(ana, '');
    const first = await singleIdentityPkcs12(bundle, null, ana.fingerprint);
    const second = await singleIdentityPkcs12(bundle, null, ana.fingerprint);
    expect(first.kind === 'found' && second.kind === 'found' && first.certificate.passphrase !== second.certificate.passphrase).toBe(true);
  });

  it('re-wraps a legacy 3DES export (older Windows and NSS) into one that OpenSSL 3 loads', async () => {
    const legacy = legacyExport(luis, 'vieja');
    const found = await singleIdentityPkcs12(legacy.bytes, 'vieja', legacy.identity.fingerprint);
    if (found.kind !== 'found') throw new Error(found.kind);
    expectOnlyIdentity(found.certificate.pfx, found.certificate.passphrase, legacy.identity);
  });

  it('says why it cannot: a wrong password, not a PKCS#12, not in it, in it without its key', async () => {
    await expect(singleIdentityPkcs12(createPkcs12(ana, 'buena'), 'mala', ana.fingerprint)).resolves.toEqual({ kind: 'locked' });
    await expect(singleIdentityPkcs12(new TextEncoder().encode('hola'), null, ana.fingerprint)).resolves.toEqual({ kind: 'unreadable' });
    await expect(singleIdentityPkcs12(createPkcs12(ana, ''), null, luis.fingerprint)).resolves.toEqual({ kind: 'missing' });
    await expect(singleIdentityPkcs12(createPkcs12(ana, '', { withoutKey: true }), null, ana.fingerprint)).resolves.toEqual({ kind: 'keyless' });
  });

  it('writePkcs12 output is what OpenSSL reads for an RSA key too', () => {
    const pfx = writePkcs12(luis.der, luis.keyPair.privateKey, 'abc123');
    expect(() => createSecureContext({ pfx, passphrase: 'abc123' })).not.toThrow();
  });
});

/** A service over its own data folder; the OS store is the given platform's, with recorded commands. */
async function service(overrides: Partial<CertificateServiceOptions> = {}) {
  const data = await mkdtemp(join(root, 'datos-'));
  return createCertificateService({
    platform: 'aix',
    settingsFile: join(data, 'certificates.json'),
    box: keyFileSecretBox(join(data, 'secret.key')),
    nssDatabase: `sql:${join(root, 'sin-nss')}`,
    ...overrides,
  });
}

describe('clientCertificate from the .p12/.pfx folder', () => {
  it('opens the file with its stored password and gives only that certificate', async () => {
    const folder = join(root, 'carpeta');
    await mkdir(folder);
    await writeFile(join(folder, 'luis.pfx'), createPkcs12Bundle([luis, ana], 'Secreto-1'));
    const source = await service();
    await source.setFolder(folder);
    await expect(source.clientCertificate(luis.fingerprint)).rejects.toThrow('El certificado elegido no está en este dispositivo');
    await source.unlock('luis.pfx', 'Secreto-1');

    const { pfx, passphrase } = await source.clientCertificate(luis.fingerprint);
    expectOnlyIdentity(pfx, passphrase, luis);
    expect(pfx.includes(Buffer.from('Secreto-1'))).toBe(false);
  });

  it('a certificate of no store here is refused in Spanish', async () => {
    const source = await service();
    await expect(source.clientCertificate('f'.repeat(64))).rejects.toThrow('El certificado elegido no está en este dispositivo');
  });
});

const toolsHere = nssToolsAvailable();
const mustRun = Boolean(process.env.CI);
describe.skipIf(!toolsHere && !mustRun)(`clientCertificate from a real NSS database (pk12util)${toolsHere ? '' : ' (skipped: apt-get install libnss3-tools)'}`, () => {
  it('exports the chosen certificate with its key, and leaves no file behind', async () => {
    const nss = await createNssDatabase(root);
    try {
      await nss.importWithKey(ana, 'ANA MARTIN - FNMT');
      await nss.importWithKey(luis);
      const source = await service({ platform: 'linux', nssDatabase: nss.database });
      const before = await tempExports();

      const { pfx, passphrase } = await source.clientCertificate(ana.fingerprint);
      expectOnlyIdentity(pfx, passphrase, ana);
      const other = await source.clientCertificate(luis.fingerprint);
      expectOnlyIdentity(other.pfx, other.passphrase, luis);

      expect(await tempExports()).toEqual(before);
    } finally {
      await nss.remove();
    }
  });
});

async function tempExports(): Promise<string[]> {
  const { readdir } = await import('node:fs/promises');
  return (await readdir(tmpdir())).filter((name) => name.startsWith('autoasesor-export-'));
}

describe('clientCertificate from the Windows store (recorded PowerShell)', () => {
  const thumbprint = 'AB'.repeat(20);
  const legacy = legacyExport(luis, 'vieja');
  const windowsListing = (holder: TestCertificate): CommandOutput => ({
    exitCode: 0,
    stderr: '',
    stdout: JSON.stringify([{ Thumbprint: createHash('sha1').update(holder.der).digest('hex').toUpperCase(), HasPrivateKey: true, Der: Buffer.from(holder.der).toString('base64'), FriendlyName: null, Subject: null }]),
  });

  it('the export script names only the thumbprint and the one-off password, and refuses anything else', () => {
    const script = windowsExportScript(thumbprint, 'abc123');
    expect(script).toContain(`Cert:\\CurrentUser\\My\\${thumbprint}`);
    expect(script).toContain("X509ContentType]::Pfx, 'abc123')");
    expect(() => windowsExportScript("AB'; Remove-Item C:\\", 'abc')).toThrow();
    expect(() => windowsExportScript(thumbprint, "x'; whoami")).toThrow();
  });

  it('an exportable key comes back re-wrapped; a non-exportable one fails in Spanish', async () => {
    let exportable = true;
    const run: RunCommand = async (_file, args) => {
      const script = args.at(-1) ?? '';
      if (script.includes('Get-ChildItem')) return windowsListing(legacy.identity);
      const password = /Pfx, '([0-9a-f]+)'/.exec(script)?.[1] ?? '';
      if (!exportable) return { exitCode: 3, stdout: '', stderr: 'Key not valid for use in specified state.' };
      // What .NET Framework's Export(Pfx) writes: 3DES, under the password it was given.
      return { exitCode: 0, stdout: `${Buffer.from(legacyExport(luis, password).bytes).toString('base64')}\r\n`, stderr: '' };
    };
    const source = await service({ platform: 'win32', runCommand: run });
    const { pfx, passphrase } = await source.clientCertificate(legacy.identity.fingerprint);
    expectOnlyIdentity(pfx, passphrase, legacy.identity);

    exportable = false;
    await expect(source.clientCertificate(legacy.identity.fingerprint)).rejects.toThrow(/^La clave de este certificado no se puede exportar: Windows la guardó como no exportable/);
  });

  it('a failing PowerShell names its reason', async () => {
    const run: RunCommand = async () => ({ exitCode: 1, stdout: '', stderr: 'Access denied\r\nmore' });
    await expect(exportFromWindows(thumbprint, 'abc', run)).rejects.toThrow('No se puede exportar el certificado del almacén de Windows: Access denied');
  });
});

describe('exportFromKeychain (recorded security)', () => {
  it('reads the file security wrote in a private folder and removes it', async () => {
    let written = '';
    const run: RunCommand = async (file, args) => {
      expect(file).toBe('security');
      written = args[args.indexOf('-o') + 1] ?? '';
      const password = args[args.indexOf('-P') + 1] ?? '';
      await writeFile(written, createPkcs12Bundle([ana, luis], password));
      return { exitCode: 0, stdout: '', stderr: '' };
    };
    const bytes = await exportFromKeychain('abc123', run);
    expect(readPkcs12(bytes, 'abc123').kind).toBe('read');
    await expect(readFile(written)).rejects.toThrow(/ENOENT/);
  });

  it('the user refusing access is said plainly', async () => {
    const run: RunCommand = async () => ({ exitCode: 1, stdout: '', stderr: 'security: SecKeychainItemExport: User canceled the operation.' });
    await expect(exportFromKeychain('abc', run)).rejects.toThrow('Se ha denegado el acceso al llavero');
  });
});
