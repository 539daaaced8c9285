import { createHash } from 'node:crypto';
import { z } from 'zod';
import { certificateStoreNames } from '#shared/certificates/certificate.ts';
import type { LocalCertificate } from '#shared/certificates/certificate.ts';
import { CommandError } from './command.ts';
import type { RunCommand } from './command.ts';
import { CertificateReadError, describeClientCertificate } from './x509.ts';
import type { StoreListing } from './x509.ts';

/**
 * The Windows user store (Cert:\CurrentUser\My, where the FNMT installer and the browsers put personal
 * certificates), read through PowerShell: no native module, and the same on every Windows since 7.
 */

/**
 * UTF-8 output (names with Ñ and accents), ISO dates (Windows PowerShell 5.1 writes DateTime as "\/Date(ms)\/"),
 * and -InputObject @(...) so that one certificate is still a JSON array (piped, a single item becomes an object).
 */
export const LIST_WINDOWS_CERTIFICATES_SCRIPT = [
  '$ErrorActionPreference = \'Stop\'',
  '[Console]::OutputEncoding = [Text.Encoding]::UTF8',
  '$certificates = @(Get-ChildItem Cert:\\CurrentUser\\My | Select-Object Subject,Issuer,Thumbprint,SerialNumber,'
    + '@{n=\'NotBefore\';e={$_.NotBefore.ToString(\'o\')}},@{n=\'NotAfter\';e={$_.NotAfter.ToString(\'o\')}},'
    + 'HasPrivateKey,FriendlyName,@{n=\'Der\';e={[Convert]::ToBase64String($_.RawData)}})',
  'ConvertTo-Json -InputObject $certificates -Depth 3',
].join('; ');

export const POWERSHELL = 'powershell.exe';
export const POWERSHELL_ARGS = ['-NoProfile', '-NonInteractive', '-Command', LIST_WINDOWS_CERTIFICATES_SCRIPT] as const;

const storeEntrySchema = z.object({
  Thumbprint: z.string().regex(/^[0-9A-Fa-f]{40}$/),
  HasPrivateKey: z.boolean(),
  Der: z.string().min(1),
  FriendlyName: z.string().nullish(),
  Subject: z.string().nullish(),
});
type StoreEntry = z.infer<typeof storeEntrySchema>;

const STORE = 'windows';
const storeName = certificateStoreNames[STORE];

function unavailable(detail: string): StoreListing {
  return {
    certificates: [],
    problems: [{ code: 'STORE_UNAVAILABLE', store: STORE, source: storeName, message: `No se pudo leer el almacén de certificados de Windows: ${detail}` }],
  };
}

/** PowerShell's JSON: an array, a lone object (older scripts piped into ConvertTo-Json) or nothing for an empty store. */
function parseEntries(stdout: string): unknown[] | null {
  const text = stdout.replace(/^\uFEFF/, '').trim();
  if (text === '') return [];
  try {
    const parsed: unknown = JSON.parse(text);
    if (Array.isArray(parsed)) return parsed;
    return parsed !== null && typeof parsed === 'object' ? [parsed] : null;
  } catch {
    return null;
  }
}

/** The thumbprint the store gives is SHA-1 of the DER; the one we compute is the same when the bytes are intact. */
function thumbprintOf(der: Uint8Array): string {
  return createHash('sha1').update(der).digest('hex').toUpperCase();
}

function readEntry(entry: StoreEntry): LocalCertificate | null {
  if (!entry.HasPrivateKey) return null; // someone else's certificate, or a CA: nothing to sign with
  const der = new Uint8Array(Buffer.from(entry.Der, 'base64'));
  if (thumbprintOf(der) !== entry.Thumbprint.toUpperCase()) throw new CertificateReadError('sus datos no corresponden a su huella');
  return describeClientCertificate(der, STORE, entry.Thumbprint.toUpperCase());
}

/**
 * Personal certificates of the Windows user: those with a private key, not CAs, usable for client
 * authentication. `location` is the thumbprint. A certificate that cannot be read is a problem, not a failure.
 */
export async function listWindowsCertificates(run: RunCommand): Promise<StoreListing> {
  let output;
  try {
    output = await run(POWERSHELL, POWERSHELL_ARGS);
  } catch (error) {
    return unavailable(error instanceof CommandError ? error.message : 'PowerShell no se pudo ejecutar');
  }
  if (output.exitCode !== 0) {
    const reason = output.stderr.trim().split(/\r?\n/)[0]?.trim();
    return unavailable(`PowerShell terminó con el código ${output.exitCode}${reason ? ` (${reason})` : ''}`);
  }
  const entries = parseEntries(output.stdout);
  if (entries === null) return unavailable('PowerShell devolvió una respuesta que no se entiende');

  const listing: StoreListing = { certificates: [], problems: [] };
  for (const raw of entries) {
    const entry = storeEntrySchema.safeParse(raw);
    if (!entry.success) {
      listing.problems.push({ code: 'UNREADABLE', store: STORE, source: storeName, message: 'Un certificado del almacén de Windows no se puede leer: faltan sus datos' });
      continue;
    }
    try {
      const certificate = readEntry(entry.data);
      if (certificate !== null) listing.certificates.push(certificate);
    } catch (error) {
      const name = entry.data.FriendlyName?.trim() || entry.data.Subject?.trim() || entry.data.Thumbprint;
      const reason = error instanceof CertificateReadError ? error.message : 'El certificado no se puede leer';
      listing.problems.push({ code: 'UNREADABLE', store: STORE, source: entry.data.Thumbprint.toUpperCase(), message: `${reason} (${name})` });
    }
  }
  return listing;
}
