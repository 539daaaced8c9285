import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportFromNss } from './client-certificate-stores.ts';
import { singleIdentityPkcs12 } from './client-certificate.ts';
import { runCommand } from './command.ts';
import { listNssCertificates, NssStore, parseListing, segmentPems } from './nss.ts';
import { createNssDatabase, nssToolsAvailable, type NssDatabase } from './testing/nss-database.ts';
import { createTestCertificate, OID, privateKeyPem, testAuthority } from './testing/spanish-certificates.ts';

const toolsHere = nssToolsAvailable();
const mustRun = Boolean(process.env.CI);

describe('NSS tools', () => {
  it.runIf(mustRun)('are installed in CI (.ci/run installs libnss3-tools), so the store tests below really run', () => {
    expect(toolsHere, 'certutil/pk12util missing: apt-get install libnss3-tools').toBe(true);
  });
});

// Outside CI a machine without certutil skips the store tests (and says why); in CI they must run.
describe.skipIf(!toolsHere && !mustRun)(`listNssCertificates on a real NSS database${toolsHere ? '' : ' (skipped: certutil is not installed; apt-get install libnss3-tools)'}`, () => {
  let parent: string;
  let nss: NssDatabase;
  const ana = createTestCertificate({ givenName: 'ANA', surnames: 'PEREZ MARTIN', nif: '12345678Z' });
  const anaRenewed = createTestCertificate({ givenName: 'ANA', surnames: 'PEREZ MARTIN', nif: '12345678Z', keyType: 'ec' });
  const anaWithoutKey = createTestCertificate({ givenName: 'ANA', surnames: 'PEREZ MARTIN', nif: '12345678Z', keyType: 'ec' });
  const representative = createTestCertificate({ kind: 'representative', keyType: 'ec', nif: '00000000T', cif: 'B12345674' });
  const quoted = createTestCertificate({ kind: 'seal', keyType: 'ec', cif: 'Q2826000H', organization: 'AYUNTAMIENTO DE PRUEBA' });
  const webServer = createTestCertificate({ kind: 'entity', keyType: 'ec', extendedKeyUsage: [OID.serverAuth] });
  const colleague = createTestCertificate({ keyType: 'ec', givenName: 'LUIS', surnames: 'GOMEZ RUIZ', nif: '87654321X' });

  beforeAll(async () => {
    parent = await mkdtemp(join(tmpdir(), 'nss-test-'));
    nss = await createNssDatabase(parent);
    await nss.importWithKey(ana, 'Ana FNMT');
    // The same subject keeps the same nickname in NSS: a renewal (with its key) and a copy without one.
    await nss.importWithKey(anaRenewed, 'Ana renovado');
    await nss.addCertificate(anaWithoutKey, 'Ana FNMT');
    // Without a friendly name pk12util makes one from the CN, whose 'R:' NSS reads as a token prefix.
    await nss.importWithKey(representative);
    await nss.importWithKey(quoted, 'Sello "ayuntamiento"');
    await nss.importWithKey(webServer, 'Servidor web');
    await nss.addCertificate(colleague, 'Luis (sin clave)');
    await nss.addCertificate(testAuthority('AC FNMT Usuarios'), 'AC FNMT Usuarios', 'CT,C,C');
  }, 60_000);
  afterAll(async () => {
    await rm(parent, { recursive: true, force: true });
  });

  it.each(['auto', 'certutil'] as const)('lists the user certificates that have a key and can authenticate a client, with their nickname (read via %s)', async (via) => {
    const { certificates, problems } = await listNssCertificates({ database: nss.database, via });
    expect(problems).toEqual([]);
    const byFingerprint = new Map(certificates.map((certificate) => [certificate.fingerprint, certificate]));
    expect([...byFingerprint.keys()].sort()).toEqual([ana, anaRenewed, representative, quoted].map((certificate) => certificate.fingerprint).sort());
    expect(certificates).toHaveLength(4);

    expect(byFingerprint.get(ana.fingerprint)).toMatchObject({ store: 'nss', location: 'Ana FNMT', commonName: 'PEREZ MARTIN ANA - 12345678Z', nifVat: '12345678Z', kind: 'person' });
    expect(byFingerprint.get(anaRenewed.fingerprint)).toMatchObject({ location: 'Ana FNMT' });
    expect(byFingerprint.get(representative.fingerprint)).toMatchObject({
      location: '00000000T ELENA RODRIGUEZ GARCIA (R: B12345674) - FNMT-RCM',
      kind: 'representative',
      nifVat: 'B12345674',
      holderNif: '00000000T',
    });
    expect(byFingerprint.get(quoted.fingerprint)).toMatchObject({ location: 'Sello "ayuntamiento"', kind: 'seal', nifVat: 'Q2826000H' });
  });

  it.each(['auto', 'certutil'] as const)('never returns key material (via %s)', async (via) => {
    const json = JSON.stringify(await listNssCertificates({ database: nss.database, via }));
    expect(json).not.toMatch(/PRIVATE KEY|BEGIN/);
    expect(json).not.toContain(privateKeyPem(ana).split('\n')[1]);
  });

  it('asks certutil once for the listing and once per batch, not once per certificate', async () => {
    const log = join(parent, 'certutil.log');
    const wrapper = join(parent, 'certutil-logged');
    await writeFile(wrapper, `#!/bin/sh\necho "$1 $2" >> '${log}'\nexec certutil "$@"\n`, { mode: 0o755 });
    const { certificates } = await listNssCertificates({ database: nss.database, via: 'certutil', certutil: wrapper });
    expect(certificates).toHaveLength(4);
    // The quoted nickname cannot go in a batch line: it is the one asked on its own, twice (listing, PEMs).
    expect((await readFile(log, 'utf8')).trim().split('\n').sort()).toEqual(['-B -i', '-B -i', '-L -d', '-L -n', '-L -n']);
  });

  it('keeps what it read between listings, yet shows what was added or removed since', async () => {
    const own = await createNssDatabase(parent);
    await own.importWithKey(ana, 'Ana FNMT');
    const store = new NssStore({ database: own.database });
    expect((await store.list()).certificates.map((certificate) => certificate.fingerprint)).toEqual([ana.fingerprint]);
    await own.importWithKey(colleague, 'Luis');
    expect((await store.list()).certificates.map((certificate) => [certificate.location, certificate.fingerprint]).sort()).toEqual(
      [['Ana FNMT', ana.fingerprint], ['Luis', colleague.fingerprint]].sort(),
    );
    await own.remove();
    await expect(store.list()).resolves.toMatchObject({ certificates: [], problems: [{ code: 'STORE_UNAVAILABLE' }] });
  });

  it('reports a missing database as an unavailable store, in Spanish', async () => {
    const missing = join(parent, 'no-existe');
    await expect(listNssCertificates({ database: `sql:${missing}` })).resolves.toEqual({
      certificates: [],
      problems: [{ code: 'STORE_UNAVAILABLE', store: 'nss', source: 'Almacén NSS', message: expect.stringContaining(`No hay almacén de certificados NSS en ${missing}`) }],
    });
  });

  it('reads an sql: database without certutil', async () => {
    const { certificates } = await listNssCertificates({ database: nss.database, certutil: join(parent, 'certutil-no-instalado') });
    expect(certificates).toHaveLength(4);
  });

  it('reports a missing certutil as an unavailable store instead of failing, when it is needed', async () => {
    await expect(listNssCertificates({ database: nss.database, via: 'certutil', certutil: join(parent, 'certutil-no-instalado') })).resolves.toEqual({
      certificates: [],
      problems: [{ code: 'STORE_UNAVAILABLE', store: 'nss', source: 'Almacén NSS', message: expect.stringContaining('libnss3-tools') }],
    });
  });

  it("exports a representative's certificate and key although its nickname holds 'R:' (read by NSS as a token name)", async () => {
    const { certificates } = await listNssCertificates({ database: nss.database });
    const listed = certificates.find((certificate) => certificate.fingerprint === representative.fingerprint);
    expect(listed?.location).toContain('(R: B12345674)');
    const exported = await exportFromNss(nss.database, listed?.location ?? '', 'clave-e2e', { run: runCommand });
    const found = await singleIdentityPkcs12(exported, 'clave-e2e', representative.fingerprint);
    expect(found.kind).toBe('found');
  });

  it('reports a folder that is not an NSS database', async () => {
    const { problems } = await listNssCertificates({ database: `sql:${parent}` });
    expect(problems).toEqual([{ code: 'STORE_UNAVAILABLE', store: 'nss', source: 'Almacén NSS', message: expect.stringContaining('No se puede leer el almacén NSS') }]);
  });
});

describe('parseListing', () => {
  it('reads nicknames with spaces, commas and token prefixes, and every trust column', () => {
    const output = [
      '',
      'Certificate Nickname                                         Trust Attributes',
      '                                                             SSL,S/MIME,JAR/XPI',
      '',
      'PEREZ MARTIN ANA - 12345678Z - FNMT-RCM                      u,u,u',
      'NSS Certificate DB:00000000T ELENA RODRIGUEZ GARCIA (R: B12345674) - FNMT-RCM u,u,u',
      'Gómez, Luis                                                  ,,   ',
      'AC FNMT Usuarios                                             CT,C,C',
      '',
    ].join('\n');
    expect(parseListing(output)).toEqual([
      { nickname: 'PEREZ MARTIN ANA - 12345678Z - FNMT-RCM', trust: 'u,u,u' },
      { nickname: 'NSS Certificate DB:00000000T ELENA RODRIGUEZ GARCIA (R: B12345674) - FNMT-RCM', trust: 'u,u,u' },
      { nickname: 'Gómez, Luis', trust: ',,' },
      { nickname: 'AC FNMT Usuarios', trust: 'CT,C,C' },
    ]);
  });
});

describe('segmentPems', () => {
  it('splits a batch by command: where the subject changes or a certificate repeats', () => {
    const first = createTestCertificate({ keyType: 'ec', nif: '12345678Z' });
    const renewed = createTestCertificate({ keyType: 'ec', nif: '12345678Z' });
    const other = createTestCertificate({ keyType: 'ec', nif: '87654321X' });
    // 'A' and 'B' name the same subject, so each prints both certificates; 'C' prints its own.
    const segments = segmentPems([first.der, renewed.der, renewed.der, first.der, other.der], ['A', 'B', 'C']);
    expect(segments.map((segment) => [segment.nickname, segment.pems.length])).toEqual([['A', 2], ['B', 2], ['C', 1]]);
    expect(segmentPems([first.der, other.der, first.der], ['A'])).toEqual([{ nickname: 'A', pems: [first.der] }]);
  });
});
