import { z } from 'zod/mini';

/**
 * A digital certificate as the product knows it: public facts read from the X.509 certificate on the
 * PC that holds it. The private key is never part of it: it stays in the OS store or the .p12 file.
 */
export const CERTIFICATE_KINDS = ['person', 'representative', 'entity', 'seal'] as const;
export type CertificateKind = (typeof CERTIFICATE_KINDS)[number];

/** Where a desktop found it: Windows CurrentUser\My, macOS login keychain, Linux NSS db, or a .p12/.pfx folder. */
export const CERTIFICATE_STORES = ['windows', 'macos', 'nss', 'pkcs12'] as const;
export type CertificateStore = (typeof CERTIFICATE_STORES)[number];

export const certificateKindNames: Record<CertificateKind, string> = {
  person: 'Persona física',
  representative: 'Representante',
  entity: 'Entidad',
  seal: 'Sello',
};

export const certificateStoreNames: Record<CertificateStore, string> = {
  windows: 'Almacén de Windows',
  macos: 'Llavero de macOS',
  nss: 'Almacén NSS (Chrome/Firefox)',
  pkcs12: 'Archivo .p12/.pfx',
};

const PEM_OR_KEY = /-----BEGIN|PRIVATE KEY|^MII[A-Za-z0-9+/]{40,}/;
/** A text field that must not carry key material (the server refuses a key sent by mistake). */
const publicText = (max: number) =>
  z.string().check(
    z.maxLength(max),
    z.refine((text) => !PEM_OR_KEY.test(text), 'Este campo no puede llevar una clave ni un certificado codificado'),
  );

const isoInstant = z.string().check(z.refine((text) => /^\d{4}-\d{2}-\d{2}T/.test(text) && !Number.isNaN(Date.parse(text)), 'Fecha no válida'));

/** What a desktop sends to the server and the server keeps: metadata only. Unknown keys are refused. */
export const certificateMetadataSchema = z.strictObject({
  /** SHA-256 of the DER certificate, lowercase hex: the certificate's identity across stores and machines. */
  fingerprint: z.string().check(z.regex(/^[0-9a-f]{64}$/, 'La huella del certificado no es válida')),
  /** Serial number in uppercase hex, as the issuer assigned it. */
  serialNumber: z.string().check(z.regex(/^[0-9A-F]{1,80}$/, 'El número de serie no es válido')),
  /** The whole subject, RFC 4514 style ('CN=..., serialNumber=IDCES-..., C=ES'). */
  subjectString: publicText(2000),
  /** The subject's CN: the name people know the certificate by. */
  commonName: publicText(400),
  /** The issuer's CN (or O when it has no CN), e.g. 'AC FNMT Usuarios'. */
  issuer: publicText(400),
  notBefore: isoInstant,
  notAfter: isoInstant,
  /** The holder's NIF/NIE (person) or the entity's CIF (representative, entity, seal); null when none is found. */
  nifVat: z.nullable(z.string().check(z.regex(/^[0-9A-Z]{8,12}$/, 'El NIF del certificado no es válido'))),
  kind: z.enum(CERTIFICATE_KINDS),
  store: z.enum(CERTIFICATE_STORES),
});
export type CertificateMetadata = z.infer<typeof certificateMetadataSchema>;

/**
 * A certificate as GetCertificatesList returns it on the desktop: the metadata plus where it lives on
 * this PC (NSS nickname, keychain label, Windows thumbprint or .p12 file name). `location` and
 * `holderNif` stay on this machine's screen; only the metadata is synced.
 */
export const localCertificateSchema = z.object({
  ...certificateMetadataSchema.shape,
  location: z.string(),
  /** For representative certificates, the person's NIF (the CN's leading NIF); null otherwise. */
  holderNif: z.nullable(z.string()),
});
export type LocalCertificate = z.infer<typeof localCertificateSchema>;

/** Why part of a store could not be read; the list still returns everything else. */
export const CERTIFICATE_PROBLEM_CODES = ['PASSWORD_REQUIRED', 'WRONG_PASSWORD', 'UNREADABLE', 'STORE_UNAVAILABLE'] as const;
export const certificateProblemSchema = z.object({
  code: z.enum(CERTIFICATE_PROBLEM_CODES),
  store: z.enum(CERTIFICATE_STORES),
  /** The file name (pkcs12) or the store's name; for PASSWORD_REQUIRED it is what UnlockCertificateFile takes. */
  source: z.string(),
  message: z.string(),
});
export type CertificateProblem = z.infer<typeof certificateProblemSchema>;

/** Days before expiry at which the radar warns (spec issue 6): the tightest one that applies is shown. */
export const EXPIRY_THRESHOLDS_DAYS = [60, 30, 14, 7, 1] as const;

/** Whole days from `now` to `notAfter` (negative once expired), counted as the radar shows them. */
export function daysUntil(notAfter: string, now: Date): number {
  return Math.floor((Date.parse(notAfter) - now.getTime()) / 86_400_000);
}

/** The tightest threshold the certificate is within, 0 when it has expired, null when it is not within 60 days. */
export function expiryThreshold(daysLeft: number): (typeof EXPIRY_THRESHOLDS_DAYS)[number] | 0 | null {
  if (daysLeft < 0) return 0;
  let tightest: (typeof EXPIRY_THRESHOLDS_DAYS)[number] | null = null;
  for (const threshold of EXPIRY_THRESHOLDS_DAYS) if (daysLeft <= threshold) tightest = threshold;
  return tightest;
}
