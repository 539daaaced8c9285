import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { localCertificateSchema } from '#shared/certificates/certificate.ts';
import { CommandError } from './command.ts';
import type { CommandOutput, RunCommand } from './command.ts';
import { FIND_CERTIFICATE_ARGS, FIND_IDENTITY_ARGS, listMacosCertificates, parseIdentities, SECURITY } from './macos.ts';

/**
 * Fixtures in the format Apple's `security` prints (SecurityTool identity_find.c and keychain_find.c):
 * find-identity lists each identity as '%3d) SHA1 "label"' plus ' (CSSMERR_…)' when untrusted, in a
 * 'Matching identities' section and a 'Valid identities only' one; find-certificate -a -Z -p prints
 * 'SHA-256 hash:', 'SHA-1 hash:' and a PEM block per certificate of every keychain in the search list.
 * Identities: an FNMT person (trusted), a representative (chain not trusted on this Mac) and a localhost server
 * certificate. Certificates: the FNMT intermediate, the person (twice: login and System), a colleague's, the
 * representative's and localhost's.
 */
const identityOutput = readFileSync(new URL('./fixtures/macos-find-identity.txt', import.meta.url), 'utf8');
const certificateOutput = readFileSync(new URL('./fixtures/macos-find-certificate.txt', import.meta.url), 'utf8');

type Replies = Record<string, Partial<CommandOutput> | Error>;
function security(replies: Replies): RunCommand & { calls: string[][] } {
  const calls: string[][] = [];
  const run = async (file: string, args: readonly string[]) => {
    calls.push([file, ...args]);
    const reply = replies[args[0] ?? ''];
    if (reply instanceof Error) throw reply;
    return { exitCode: 0, stdout: '', stderr: '', ...reply };
  };
  return Object.assign(run, { calls });
}

describe('listMacosCertificates', () => {
  it('lists the client identities, described from their certificates and labelled as in the keychain', async () => {
    const run = security({ 'find-identity': { stdout: identityOutput }, 'find-certificate': { stdout: certificateOutput } });
    const { certificates, problems } = await listMacosCertificates(run);

    expect(run.calls).toEqual([[SECURITY, ...FIND_IDENTITY_ARGS], [SECURITY, ...FIND_CERTIFICATE_ARGS]]);
    expect(problems).toEqual([]);
    // The representative is listed although macOS does not trust its chain; localhost is a server certificate.
    expect(certificates.map((certificate) => [certificate.location, certificate.kind, certificate.nifVat, certificate.holderNif])).toEqual([
      ['MUÑOZ PEÑA ELENA - 78816596N', 'person', '78816596N', null],
      ['12345678Z JUAN GARCÍA (R: B12345674)', 'representative', 'B12345674', '12345678Z'],
    ]);
    expect(certificates[1]).toMatchObject({ store: 'macos', issuer: 'AC Representación', notAfter: '2027-01-15T10:00:00.000Z' });
    for (const certificate of certificates) expect(localCertificateSchema.safeParse(certificate).success).toBe(true);
  });

  it('reads identities from the first section only, and the -v layout too', () => {
    expect(parseIdentities(identityOutput).map((identity) => identity.label)).toEqual([
      'MUÑOZ PEÑA ELENA - 78816596N', '12345678Z JUAN GARCÍA (R: B12345674)', 'localhost',
    ]);
    const validOnly = '  1) 961B09EAA4D138C5775B722B9B067F73FB5ABB2F "Etiqueta con \\"comillas\\""\n     1 valid identities found\n';
    expect(parseIdentities(validOnly)).toEqual([{ sha1: '961B09EAA4D138C5775B722B9B067F73FB5ABB2F', label: 'Etiqueta con \\"comillas\\"' }]);
  });

  it('does not run find-certificate when there is no identity', async () => {
    const run = security({ 'find-identity': { stdout: '\nPolicy: SSL (client)\n  Matching identities\n     0 identities found\n\n  Valid identities only\n     0 valid identities found\n' } });
    expect(await listMacosCertificates(run)).toEqual({ certificates: [], problems: [] });
    expect(run.calls).toHaveLength(1);
  });

  it('reports an identity whose certificate is missing or unreadable, and lists the rest', async () => {
    const withoutRepresentative = certificateOutput.split(/(?=SHA-256 hash:)/).filter((block) => !block.includes('70B90AD019627E40AF20333A1F9616563ED8989D')).join('');
    const { certificates, problems } = await listMacosCertificates(security({ 'find-identity': { stdout: identityOutput }, 'find-certificate': { stdout: withoutRepresentative } }));
    expect(certificates.map((certificate) => certificate.nifVat)).toEqual(['78816596N']);
    expect(problems).toEqual([{
      code: 'UNREADABLE',
      store: 'macos',
      source: '12345678Z JUAN GARCÍA (R: B12345674)',
      message: 'El certificado no se puede leer: no aparece entre los certificados del llavero (12345678Z JUAN GARCÍA (R: B12345674))',
    }]);
  });

  it('reports the keychain as unavailable when security is missing or fails', async () => {
    const missing = security({ 'find-identity': new CommandError('not-found', 'No se encontró el programa security') });
    const failing = security({ 'find-identity': { stdout: identityOutput }, 'find-certificate': { exitCode: 44, stderr: 'security: SecKeychainSearchCopyNext: The specified item could not be found in the keychain.\n' } });
    expect((await listMacosCertificates(missing)).problems).toEqual([
      { code: 'STORE_UNAVAILABLE', store: 'macos', source: 'Llavero de macOS', message: 'No se pudo leer el llavero de macOS: No se encontró el programa security' },
    ]);
    expect(await listMacosCertificates(failing)).toEqual({
      certificates: [],
      problems: [{
        code: 'STORE_UNAVAILABLE', store: 'macos', source: 'Llavero de macOS',
        message: 'No se pudo leer el llavero de macOS: security find-certificate terminó con el código 44 (security: SecKeychainSearchCopyNext: The specified item could not be found in the keychain.)',
      }],
    });
  });
});
