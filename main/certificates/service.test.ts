import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandError, type RunCommand } from './command.ts';
import { keyFileSecretBox } from './secret-box.ts';
import { createCertificateService, type CertificateServiceOptions } from './service.ts';
import { createNssDatabase, nssToolsAvailable } from './testing/nss-database.ts';
import { createPkcs12, createTestCertificate } from './testing/spanish-certificates.ts';

let root: string;
let folder: string;
let counter = 0;
const zulema = createTestCertificate({ keyType: 'ec', givenName: 'ZULEMA', surnames: 'ALVAREZ SOTO', nif: '12345678Z' });
const alberto = createTestCertificate({ keyType: 'ec', givenName: 'ALBERTO', surnames: 'ÁLVAREZ RUIZ', nif: '87654321X' });
const seal = createTestCertificate({ kind: 'seal', keyType: 'ec', cif: 'Q2826000H', organization: 'AYUNTAMIENTO DE PRUEBA' });

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'certificate-service-'));
  folder = join(root, 'certificados');
  await mkdir(folder);
  await writeFile(join(folder, 'zulema.p12'), createPkcs12(zulema, ''));
  await writeFile(join(folder, 'alberto.pfx'), createPkcs12(alberto, ''));
  await writeFile(join(folder, 'sello.p12'), createPkcs12(seal, 'Secreto-1'));
  await writeFile(join(folder, 'roto.p12'), 'no es un certificado');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A service with its own data folder and no OS store (a platform without one), unless told otherwise. */
function service(overrides: Partial<CertificateServiceOptions> = {}) {
  const data = join(root, `datos-${(counter += 1)}`);
  const options: CertificateServiceOptions = {
    platform: 'aix',
    settingsFile: join(data, 'certificates.json'),
    box: keyFileSecretBox(join(data, 'secret.key')),
    nssDatabase: `sql:${join(root, 'sin-nss')}`,
    ...overrides,
  };
  return { source: createCertificateService(options), options };
}

describe('certificate service: the .p12/.pfx folder', () => {
  it('lists nothing from files until a folder is chosen, then its certificates sorted by name', async () => {
    const { source } = service();
    await expect(source.list()).resolves.toEqual({ certificates: [], problems: [], folder: null });
    await expect(source.setFolder(folder)).resolves.toBe(folder);
    const listed = await source.list();
    expect(listed.folder).toBe(folder);
    expect(listed.certificates.map((certificate) => certificate.commonName)).toEqual(['ÁLVAREZ RUIZ ALBERTO - 87654321X', 'ALVAREZ SOTO ZULEMA - 12345678Z']);
    expect(listed.problems.map((problem) => [problem.code, problem.source])).toEqual([
      ['UNREADABLE', 'roto.p12'],
      ['PASSWORD_REQUIRED', 'sello.p12'],
    ]);
  });

  it('keeps the folder and a checked password, sealed, for the next start', async () => {
    const { source, options } = service();
    await source.setFolder(folder);
    await expect(source.unlock('sello.p12', 'Secreto-1')).resolves.toBe(1);

    const saved = await readFile(options.settingsFile, 'utf8');
    expect(saved).not.toContain('Secreto-1');
    expect(JSON.parse(saved)).toMatchObject({ folder, passwords: { [join(folder, 'sello.p12')]: expect.stringMatching(/^gcm1:/) } });
    expect((await stat(options.settingsFile)).mode & 0o777).toBe(0o600);

    const restarted = createCertificateService(options);
    const listed = await restarted.list();
    expect(listed.folder).toBe(folder);
    expect(listed.certificates.find((certificate) => certificate.fingerprint === seal.fingerprint)).toMatchObject({ location: 'sello.p12', kind: 'seal' });
    expect(listed.problems.map((problem) => problem.source)).toEqual(['roto.p12']);
  });

  it('refuses a wrong password with WRONG_PASSWORD and keeps nothing', async () => {
    const { source, options } = service();
    await source.setFolder(folder);
    const before = await readFile(options.settingsFile, 'utf8');
    await expect(source.unlock('sello.p12', 'secreto-1')).rejects.toMatchObject({ code: 'WRONG_PASSWORD', message: 'La contraseña no abre este certificado.' });
    expect(await readFile(options.settingsFile, 'utf8')).toBe(before);
  });

  it('says what is wrong with the file asked for', async () => {
    const { source } = service();
    await expect(source.unlock('sello.p12', 'Secreto-1')).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('Elige primero la carpeta') });
    await source.setFolder(folder);
    await expect(source.unlock('../certificados/sello.p12', 'Secreto-1')).rejects.toMatchObject({ code: 'BAD_ARGS' });
    await expect(source.unlock(join(folder, 'sello.p12'), 'Secreto-1')).rejects.toMatchObject({ code: 'BAD_ARGS' });
    await expect(source.unlock('otro.p12', 'x')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(source.unlock('roto.p12', 'x')).rejects.toMatchObject({ code: 'FAILED', message: 'El archivo roto.p12 no es un certificado .p12/.pfx válido.' });
  });

  it('refuses a relative or missing folder, and forgets the folder and its passwords with null', async () => {
    const { source, options } = service();
    await expect(source.setFolder('certificados')).rejects.toMatchObject({ code: 'BAD_ARGS', message: expect.stringContaining('ruta completa') });
    await expect(source.setFolder(join(root, 'no-existe'))).rejects.toMatchObject({ code: 'NOT_FOUND', message: `No existe la carpeta ${join(root, 'no-existe')}.` });
    await expect(source.setFolder(join(folder, 'zulema.p12'))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(readFile(options.settingsFile)).rejects.toMatchObject({ code: 'ENOENT' });

    await source.setFolder(`${folder}/./`);
    await source.unlock('sello.p12', 'Secreto-1');
    await expect(source.setFolder(null)).resolves.toBeNull();
    expect(JSON.parse(await readFile(options.settingsFile, 'utf8'))).toEqual({ folder: null, passwords: {} });
    await expect(source.list()).resolves.toEqual({ certificates: [], problems: [], folder: null });
  });

  it('starts over from a damaged settings file', async () => {
    const { source, options } = service();
    await mkdir(join(options.settingsFile, '..'), { recursive: true });
    await writeFile(options.settingsFile, '{"folder": 3');
    await expect(source.list()).resolves.toMatchObject({ folder: null });
    await expect(source.setFolder(folder)).resolves.toBe(folder);
  });
});

describe('certificate service: the OS store of each platform', () => {
  const calls: string[] = [];
  const notInstalled: RunCommand = async (file) => {
    calls.push(file);
    throw new CommandError('not-found', `No se encontró el programa ${file}`);
  };

  it.each([
    ['win32', 'windows', 'powershell.exe'],
    ['darwin', 'macos', 'security'],
  ] as const)('%s reads the %s store (with %s)', async (platform, store, program) => {
    calls.length = 0;
    const { source } = service({ platform, runCommand: notInstalled });
    const { problems } = await source.list();
    expect(calls).toContain(program);
    expect(problems).toEqual([expect.objectContaining({ code: 'STORE_UNAVAILABLE', store })]);
  });

  it('linux reads the NSS database, and a missing one is a problem, not a failure', async () => {
    const { source } = service({ platform: 'linux' });
    await expect(source.list()).resolves.toMatchObject({ certificates: [], problems: [{ code: 'STORE_UNAVAILABLE', store: 'nss' }] });
  });

  it.skipIf(!nssToolsAvailable() && !process.env.CI)('lists a certificate in both the NSS store and the folder once, and the NSS one first', async () => {
    const nss = await createNssDatabase(root);
    await nss.importWithKey(zulema, 'Zulema');
    const { source } = service({ platform: 'linux', nssDatabase: nss.database });
    await source.setFolder(folder);
    const { certificates } = await source.list();
    expect(certificates.map((certificate) => [certificate.commonName, certificate.store, certificate.location])).toEqual([
      ['ÁLVAREZ RUIZ ALBERTO - 87654321X', 'pkcs12', 'alberto.pfx'],
      ['ALVAREZ SOTO ZULEMA - 12345678Z', 'nss', 'Zulema'],
    ]);
    await nss.remove();
  });
});
