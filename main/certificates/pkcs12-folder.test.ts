import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import forge from 'node-forge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folderFilePath, openPkcs12, Pkcs12Folder } from './pkcs12-folder.ts';
import { createPkcs12, createTestCertificate, OID, privateKeyPem, testAuthority, type TestCertificate } from './testing/spanish-certificates.ts';

let folder: string;
const ana = createTestCertificate({ givenName: 'ANA', surnames: 'PEREZ MARTIN', nif: '12345678Z' });
const representative = createTestCertificate({ kind: 'representative', keyType: 'ec', nif: '00000000T', cif: 'B12345674' });
const locked = createTestCertificate({ kind: 'seal', keyType: 'ec', cif: 'Q2826000H', organization: 'AYUNTAMIENTO DE PRUEBA' });
const webServer = createTestCertificate({ kind: 'entity', keyType: 'ec', extendedKeyUsage: [OID.serverAuth] });
const noPassword = () => Promise.resolve<string | null>(null);

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'pkcs12-folder-'));
  await writeFile(join(folder, 'ana.p12'), createPkcs12(ana, '', { extraCertificates: [testAuthority('AC FNMT Usuarios')] }));
  await writeFile(join(folder, 'Representante.PFX'), createPkcs12(representative, ''));
  await writeFile(join(folder, 'sello.p12'), createPkcs12(locked, 'Secreto-1'));
  await writeFile(join(folder, 'roto.p12'), 'esto no es un PKCS#12');
  await writeFile(join(folder, 'solo-certificado.p12'), createPkcs12(ana, '', { withoutKey: true }));
  await writeFile(join(folder, 'servidor.pfx'), createPkcs12(webServer, ''));
  await writeFile(join(folder, 'notas.txt'), 'contraseñas en otro sitio');
  await mkdir(join(folder, 'antiguos'));
  await writeFile(join(folder, 'antiguos', 'viejo.p12'), createPkcs12(createTestCertificate({ keyType: 'ec' }), ''));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const fingerprints = (certificates: Array<{ fingerprint: string }>) => certificates.map((certificate) => certificate.fingerprint).sort();

describe('Pkcs12Folder.list', () => {
  it('lists the certificates that come with their key, from .p12 and .pfx files directly in the folder', async () => {
    const reading = await new Pkcs12Folder().list(folder, noPassword);
    expect(fingerprints(reading.certificates)).toEqual(fingerprints([ana, representative]));
    const listedAna = reading.certificates.find((certificate) => certificate.fingerprint === ana.fingerprint);
    expect(listedAna).toMatchObject({ store: 'pkcs12', location: 'ana.p12', commonName: 'PEREZ MARTIN ANA - 12345678Z', nifVat: '12345678Z', kind: 'person' });
    expect(reading.certificates.find((certificate) => certificate.fingerprint === representative.fingerprint)).toMatchObject({
      location: 'Representante.PFX',
      kind: 'representative',
      nifVat: 'B12345674',
      holderNif: '00000000T',
    });
  });

  it('says which file needs a password and which one is broken, and lists the rest', async () => {
    const { problems } = await new Pkcs12Folder().list(folder, noPassword);
    expect(problems).toEqual([
      { code: 'UNREADABLE', store: 'pkcs12', source: 'roto.p12', message: 'El archivo roto.p12 no es un certificado .p12/.pfx válido.' },
      { code: 'PASSWORD_REQUIRED', store: 'pkcs12', source: 'sello.p12', message: expect.stringContaining('sello.p12 tiene contraseña') },
    ]);
  });

  it('opens a locked file with its stored password; a stored password that no longer opens it is a problem', async () => {
    const reader = new Pkcs12Folder();
    const right = await reader.list(folder, async (path) => (path.endsWith('sello.p12') ? 'Secreto-1' : null));
    expect(right.certificates.find((certificate) => certificate.location === 'sello.p12')).toMatchObject({ fingerprint: locked.fingerprint, kind: 'seal', nifVat: 'Q2826000H' });
    expect(right.problems.map((problem) => problem.source)).toEqual(['roto.p12']);

    const stale = await reader.list(folder, async (path) => (path.endsWith('sello.p12') ? 'la-de-antes' : null));
    expect(stale.problems).toContainEqual({ code: 'WRONG_PASSWORD', store: 'pkcs12', source: 'sello.p12', message: expect.stringContaining('vuelve a escribirla') });
  });

  it('never returns key material', async () => {
    const reading = await new Pkcs12Folder().list(folder, async () => 'Secreto-1');
    const json = JSON.stringify(reading);
    expect(json).not.toMatch(/PRIVATE KEY|BEGIN/);
    for (const certificate of [ana, representative, locked]) {
      const keyBody = privateKeyPem(certificate).split('\n').slice(1, 3).join('');
      expect(json).not.toContain(keyBody.slice(0, 40));
    }
  });

  it('reports a folder that is not there instead of failing', async () => {
    const missing = join(folder, 'no-existe');
    await expect(new Pkcs12Folder().list(missing, noPassword)).resolves.toEqual({
      certificates: [],
      problems: [{ code: 'STORE_UNAVAILABLE', store: 'pkcs12', source: missing, message: `No se puede leer la carpeta de certificados ${missing}.` }],
    });
  });

  it('reads a file again when it changes', async () => {
    const reader = new Pkcs12Folder();
    const path = join(folder, 'cambia.p12');
    await writeFile(path, createPkcs12(ana, 'primera'));
    expect((await reader.open(path, null)).kind).toBe('locked');
    await writeFile(path, createPkcs12(ana, ''));
    expect((await reader.open(path, null)).kind).toBe('opened');
    await rm(path);
  });
});

describe('openPkcs12', () => {
  const bytes = createPkcs12(locked, 'Secreto-1');

  it('opens with the right password, and not with a wrong or empty one', () => {
    expect(openPkcs12(bytes, 'Secreto-1', 'sello.p12')).toMatchObject({ kind: 'opened', certificates: [{ fingerprint: locked.fingerprint }] });
    expect(openPkcs12(bytes, 'secreto-1', 'sello.p12')).toEqual({ kind: 'locked' });
    expect(openPkcs12(bytes, null, 'sello.p12')).toEqual({ kind: 'locked' });
  });

  it('reads a 3DES file as older Windows and Firefox exports write it', () => {
    // forge writes the legacy algorithms, but only for an RSA key and a certificate it can parse itself.
    const rsaAuthority = createTestCertificate({ kind: 'entity', ca: true, extendedKeyUsage: null });
    const holder: TestCertificate = createTestCertificate({ issuer: rsaAuthority, nif: '12345678Z' });
    const key = forge.pki.privateKeyFromPem(privateKeyPem(holder));
    const legacy = forge.pkcs12.toPkcs12Asn1(key, [forge.pki.certificateFromPem(holder.pem)], 'vieja', { algorithm: '3des', friendlyName: 'Ana' });
    const der = new Uint8Array(Buffer.from(forge.asn1.toDer(legacy).getBytes(), 'binary'));
    expect(openPkcs12(der, 'vieja', 'viejo.pfx')).toMatchObject({ kind: 'opened', certificates: [{ fingerprint: holder.fingerprint, location: 'viejo.pfx' }] });
  });

  it('leaves out certification authorities and certificates that cannot authenticate a client', () => {
    const authority = createTestCertificate({ ca: true, keyType: 'ec', extendedKeyUsage: null });
    expect(openPkcs12(createPkcs12(authority, ''), null, 'ca.p12')).toEqual({ kind: 'opened', certificates: [], problems: [] });
    expect(openPkcs12(createPkcs12(webServer, ''), null, 'web.p12')).toEqual({ kind: 'opened', certificates: [], problems: [] });
    const noUsage = createTestCertificate({ keyType: 'ec', extendedKeyUsage: null });
    expect(openPkcs12(createPkcs12(noUsage, ''), null, 'todo.p12')).toMatchObject({ certificates: [{ fingerprint: noUsage.fingerprint }] });
  });

  it('calls bytes that are not PKCS#12 unreadable', () => {
    expect(openPkcs12(new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x03]), null, 'x.p12')).toEqual({ kind: 'unreadable' });
    expect(openPkcs12(ana.der, null, 'x.p12')).toEqual({ kind: 'unreadable' });
  });
});

describe('folderFilePath', () => {
  it.each(['../ana.p12', '/etc/ana.p12', 'antiguos/viejo.p12', 'a\\b.p12', 'notas.txt', '..', 'ana.p12\0.txt'])('refuses %j as a file name', async (name) => {
    await expect(folderFilePath(folder, name)).rejects.toMatchObject({ code: 'BAD_ARGS', message: expect.stringContaining('solo el nombre') });
  });

  it('finds a file of the folder, and says when it is not there', async () => {
    await expect(folderFilePath(folder, 'sello.p12')).resolves.toBe(join(folder, 'sello.p12'));
    await expect(folderFilePath(folder, 'otro.p12')).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'No se encuentra el archivo otro.p12 en la carpeta de certificados.' });
  });
});
