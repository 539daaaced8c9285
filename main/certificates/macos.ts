import { createHash } from 'node:crypto';
import { certificateStoreNames } from '#shared/certificates/certificate.ts';
import { CommandError } from './command.ts';
import type { CommandOutput, RunCommand } from './command.ts';
import { CertificateReadError, describeClientCertificate } from './x509.ts';
import type { StoreListing } from './x509.ts';

/**
 * The macOS keychains (login and System, the user's search list), read with Apple's `security` tool:
 * `find-identity` names the identities (certificate + private key) by the SHA-1 of their certificate,
 * `find-certificate -a -Z -p` prints every certificate as PEM, and the two are matched by SHA-1.
 *
 * find-identity runs without -v: with it, only identities whose chain macOS trusts right now are listed,
 * which would hide expired certificates from the expiry radar and any certificate of a CA the Mac does
 * not trust. The 'Matching identities' section lists them all.
 */

export const SECURITY = 'security';
export const FIND_IDENTITY_ARGS = ['find-identity', '-p', 'ssl-client'] as const;
export const FIND_CERTIFICATE_ARGS = ['find-certificate', '-a', '-Z', '-p'] as const;

const STORE = 'macos';
const storeName = certificateStoreNames[STORE];

export interface KeychainIdentity {
  sha1: string;
  label: string;
}

function unavailable(detail: string): StoreListing {
  return {
    certificates: [],
    problems: [{ code: 'STORE_UNAVAILABLE', store: STORE, source: storeName, message: `No se pudo leer el llavero de macOS: ${detail}` }],
  };
}

/**
 * `  1) 4E8A…(40 hex) "label"` lines, optionally followed by ' (CSSMERR_…)' when macOS does not trust it.
 * Only the first section ('Matching identities'); with -v there is a single section and it is read the same way.
 */
export function parseIdentities(stdout: string): KeychainIdentity[] {
  const identities = new Map<string, KeychainIdentity>();
  for (const line of stdout.split(/\r?\n/)) {
    if (/^\s*\d+ identities found\s*$/.test(line)) break; // end of 'Matching identities'; 'Valid identities only' repeats them
    const match = /^\s*\d+\) ([0-9A-F]{40}) "(.*)"(?: \([^()]*\))?\s*$/.exec(line);
    if (match === null) continue;
    const [, sha1 = '', label = ''] = match;
    if (!identities.has(sha1)) identities.set(sha1, { sha1, label });
  }
  return [...identities.values()];
}

/** The DER of each PEM block, keyed by its SHA-1 (computed: a hash line printed next to it is not needed). */
export function parsePemCertificates(stdout: string): Map<string, Uint8Array> {
  const certificates = new Map<string, Uint8Array>();
  for (const block of stdout.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)) {
    const der = new Uint8Array(Buffer.from((block[1] ?? '').replace(/\s+/g, ''), 'base64'));
    certificates.set(createHash('sha1').update(der).digest('hex').toUpperCase(), der);
  }
  return certificates;
}

async function runSecurity(run: RunCommand, args: readonly string[]): Promise<CommandOutput | string> {
  try {
    const output = await run(SECURITY, args);
    if (output.exitCode === 0) return output;
    const reason = output.stderr.trim().split(/\r?\n/)[0]?.trim();
    return `security ${args[0]} terminó con el código ${output.exitCode}${reason ? ` (${reason})` : ''}`;
  } catch (error) {
    return error instanceof CommandError ? error.message : 'security no se pudo ejecutar';
  }
}

/**
 * The user's identities usable for client authentication (not CAs), described from their certificates.
 * `location` is the identity's label, as Keychain Access shows it.
 */
export async function listMacosCertificates(run: RunCommand): Promise<StoreListing> {
  const identitiesOutput = await runSecurity(run, FIND_IDENTITY_ARGS);
  if (typeof identitiesOutput === 'string') return unavailable(identitiesOutput);
  const identities = parseIdentities(identitiesOutput.stdout);
  if (identities.length === 0) return { certificates: [], problems: [] };

  const certificatesOutput = await runSecurity(run, FIND_CERTIFICATE_ARGS);
  if (typeof certificatesOutput === 'string') return unavailable(certificatesOutput);
  const certificatesBySha1 = parsePemCertificates(certificatesOutput.stdout);

  const listing: StoreListing = { certificates: [], problems: [] };
  for (const identity of identities) {
    const der = certificatesBySha1.get(identity.sha1);
    try {
      if (der === undefined) throw new CertificateReadError('no aparece entre los certificados del llavero');
      const certificate = describeClientCertificate(der, STORE, identity.label);
      if (certificate) listing.certificates.push(certificate);
    } catch (error) {
      const reason = error instanceof CertificateReadError ? error.message : 'El certificado no se puede leer';
      listing.problems.push({ code: 'UNREADABLE', store: STORE, source: identity.label, message: `${reason} (${identity.label})` });
    }
  }
  return listing;
}
