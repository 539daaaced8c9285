import { createHash } from 'node:crypto';
import { AsnConvert } from '@peculiar/asn1-schema';
import {
  BasicConstraints, Certificate, CertificatePolicies, ExtendedKeyUsage, SubjectAlternativeName,
  id_ce_basicConstraints, id_ce_certificatePolicies, id_ce_extKeyUsage, id_ce_subjectAltName, id_kp_clientAuth,
} from '@peculiar/asn1-x509';
import type { Name } from '@peculiar/asn1-x509';
import type { CertificateProblem, CertificateStore, LocalCertificate } from '#shared/certificates/certificate.ts';
import { identifyHolder, OID } from './subject.ts';
import type { NameAttribute } from './subject.ts';

/**
 * Reading one X.509 certificate (DER) into what the product shows and syncs.
 * Parsed with @peculiar/asn1-x509, the ASN.1 layer of @peculiar/x509: it reads RSA and EC certificates alike
 * (node-forge reads RSA only) and, unlike @peculiar/x509 itself, needs no global Reflect polyfill.
 */

/** Bytes that are not a certificate, or a certificate the product cannot describe. */
export class CertificateReadError extends Error {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(`El certificado no se puede leer: ${reason}`, options);
    this.name = 'CertificateReadError';
  }
}

/** What a store reader returns: the certificates it could read and why others could not be. */
export interface StoreListing {
  certificates: LocalCertificate[];
  problems: CertificateProblem[];
}

/** Facts a store reader needs besides the description: whether it is a CA and what it may be used for. */
export interface CertificateUsage {
  isCertificateAuthority: boolean;
  /** Extended key usages; null when the certificate has none (then it may be used for anything). */
  extendedKeyUsages: string[] | null;
}

const ANY_EXTENDED_KEY_USAGE = '2.5.29.37.0';

/** Short names for RFC 4514 strings; others are written as their dotted OID. */
const ATTRIBUTE_NAMES: Record<string, string> = {
  [OID.commonName]: 'CN',
  [OID.surname]: 'SN',
  [OID.serialNumber]: 'serialNumber',
  [OID.country]: 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.9': 'STREET',
  [OID.organization]: 'O',
  [OID.organizationalUnit]: 'OU',
  '2.5.4.12': 'title',
  [OID.givenName]: 'GN',
  [OID.organizationIdentifier]: 'organizationIdentifier',
  '0.9.2342.19200300.100.1.25': 'DC',
  '0.9.2342.19200300.100.1.1': 'UID',
  '1.2.840.113549.1.9.1': 'emailAddress',
};

const SUBJECT_MAX = 2000;
const NAME_MAX = 400;
/** The metadata schema's limit: 80 hex digits (a conforming serial has at most 20 octets). */
const SERIAL_MAX_HEX = 80;

interface ParsedCertificate {
  certificate: Certificate;
  subject: NameAttribute[];
  issuer: NameAttribute[];
}

function hex(bytes: ArrayBuffer | Uint8Array): string {
  return Buffer.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)).toString('hex');
}

function attributesOf(name: Name): NameAttribute[] {
  return name.flatMap((rdn) => rdn.map((attribute) => ({
    oid: attribute.type,
    value: attribute.value.anyValue === undefined ? attribute.value.toString() : `#${hex(attribute.value.anyValue)}`,
  })));
}

/** RFC 4514 escaping: special characters, a leading '#' or space, a trailing space. */
function escapeValue(value: string): string {
  if (value.startsWith('#') && /^#[0-9a-f]*$/.test(value)) return value; // already a hex-encoded value
  return value
    .replace(/[\\"+,;<>]/g, (character) => `\\${character}`)
    .replace(/^([ #])/, '\\$1')
    .replace(/ $/, '\\ ')
    .replace(/\0/g, '\\00');
}

/** RFC 4514 string: the last RDN first, multi-valued RDNs joined with '+'. */
export function formatName(name: Name): string {
  return [...name]
    .reverse()
    .map((rdn) => rdn.map((attribute) => {
      const type = ATTRIBUTE_NAMES[attribute.type] ?? attribute.type;
      const value = attribute.value.anyValue === undefined ? attribute.value.toString() : `#${hex(attribute.value.anyValue)}`;
      return `${type}=${escapeValue(value)}`;
    }).join('+'))
    .join(', ');
}

/** Length of the outer DER SEQUENCE, header included; null when the bytes do not start with one. */
function outerSequenceLength(der: Uint8Array): number | null {
  if (der.length < 2 || der[0] !== 0x30) return null;
  const first = der[1] ?? 0;
  if (first < 0x80) return 2 + first;
  const octets = first & 0x7f;
  if (octets === 0 || octets > 4 || der.length < 2 + octets) return null;
  let length = 0;
  for (let index = 0; index < octets; index += 1) length = length * 256 + (der[2 + index] ?? 0);
  return 2 + octets + length;
}

function parse(der: Uint8Array): ParsedCertificate {
  // The fingerprint is over these exact bytes, so a certificate with bytes before or after it is refused, not guessed at.
  if (outerSequenceLength(der) !== der.length) throw new CertificateReadError('no es un certificado X.509 en formato DER');
  let certificate: Certificate;
  try {
    certificate = AsnConvert.parse(der, Certificate);
  } catch (error) {
    throw new CertificateReadError('no es un certificado X.509 en formato DER', { cause: error });
  }
  // A parse of the wrong structure can succeed on bytes that happen to be valid ASN.1: insist on the parts we read.
  const tbs = certificate.tbsCertificate as Certificate['tbsCertificate'] | undefined;
  if (tbs?.validity?.notAfter === undefined || tbs.subject === undefined || tbs.serialNumber === undefined) {
    throw new CertificateReadError('le faltan el sujeto, el número de serie o las fechas de validez');
  }
  return { certificate, subject: attributesOf(tbs.subject), issuer: attributesOf(tbs.issuer) };
}

function extensionValue<T>(certificate: Certificate, oid: string, type: new () => T): T | null {
  const extension = certificate.tbsCertificate.extensions?.find((candidate) => candidate.extnID === oid);
  if (extension === undefined) return null;
  try {
    return AsnConvert.parse(extension.extnValue.buffer, type);
  } catch (error) {
    throw new CertificateReadError(`la extensión ${oid} está mal formada`, { cause: error });
  }
}

function firstText(attributes: readonly NameAttribute[], oid: string): string | null {
  const value = attributes.find((attribute) => attribute.oid === oid)?.value.trim();
  return value === undefined || value === '' ? null : value;
}

function isoDate(time: Certificate['tbsCertificate']['validity']['notAfter']): string {
  const date = time.getTime();
  if (Number.isNaN(date.getTime())) throw new CertificateReadError('sus fechas de validez no son válidas');
  return date.toISOString();
}

/** What the certificate may be used for, for the store readers' filters. */
export function readCertificateUsage(der: Uint8Array): CertificateUsage {
  return usageOf(parse(der).certificate);
}

function usageOf(certificate: Certificate): CertificateUsage {
  const constraints = extensionValue(certificate, id_ce_basicConstraints, BasicConstraints);
  const usages = extensionValue(certificate, id_ce_extKeyUsage, ExtendedKeyUsage);
  return { isCertificateAuthority: constraints?.cA === true, extendedKeyUsages: usages === null ? null : [...usages] };
}

/** Whether a certificate may authenticate a client (web sites of the administrations): no EKU, clientAuth or any usage. */
export function allowsClientAuthentication(usage: CertificateUsage): boolean {
  return usage.extendedKeyUsages === null
    || usage.extendedKeyUsages.includes(id_kp_clientAuth)
    || usage.extendedKeyUsages.includes(ANY_EXTENDED_KEY_USAGE);
}

/**
 * A certificate as GetCertificatesList shows it. `location` is where it lives on this PC (Windows thumbprint,
 * keychain label, NSS nickname, .p12 file name). Throws CertificateReadError, never anything else.
 */
export function describeCertificate(der: Uint8Array, store: CertificateStore, location: string): LocalCertificate {
  return guarded(() => describeParsed(parse(der), der, store, location));
}

/**
 * What the store readers list: the description of a certificate that can authenticate a client, null for a CA
 * or one whose key usages forbid it. One parse for both (the parse is most of a reading's cost: ~1 ms).
 */
export function describeClientCertificate(der: Uint8Array, store: CertificateStore, location: string): LocalCertificate | null {
  return guarded(() => {
    const parsed = parse(der);
    const usage = usageOf(parsed.certificate);
    if (usage.isCertificateAuthority || !allowsClientAuthentication(usage)) return null;
    return describeParsed(parsed, der, store, location);
  });
}

/** Anything but a CertificateReadError (a library's own exception) becomes one: the readers catch only that. */
function guarded<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof CertificateReadError) throw error;
    throw new CertificateReadError('su contenido no es válido', { cause: error });
  }
}

function describeParsed({ certificate, subject, issuer }: ParsedCertificate, der: Uint8Array, store: CertificateStore, location: string): LocalCertificate {
  const tbs = certificate.tbsCertificate;

  const serialNumber = hex(tbs.serialNumber).toUpperCase();
  if (serialNumber.length === 0 || serialNumber.length > SERIAL_MAX_HEX) {
    throw new CertificateReadError('su número de serie no tiene una longitud válida');
  }
  const alternativeNames = (extensionValue(certificate, id_ce_subjectAltName, SubjectAlternativeName) ?? [])
    .flatMap((generalName) => (generalName.directoryName === undefined ? [] : attributesOf(generalName.directoryName)));
  const policies = (extensionValue(certificate, id_ce_certificatePolicies, CertificatePolicies) ?? [])
    .map((policy) => policy.policyIdentifier);

  const subjectString = formatName(tbs.subject);
  const { kind, nifVat, holderNif } = identifyHolder({ subject, alternativeNames, policies });
  return {
    fingerprint: createHash('sha256').update(der).digest('hex'),
    serialNumber,
    subjectString: subjectString.slice(0, SUBJECT_MAX),
    // The CN is the name people know a certificate by; a certificate without one goes by its organisation or subject.
    commonName: (firstText(subject, OID.commonName) ?? firstText(subject, OID.organization) ?? subjectString).slice(0, NAME_MAX),
    issuer: (firstText(issuer, OID.commonName) ?? firstText(issuer, OID.organization) ?? formatName(tbs.issuer)).slice(0, NAME_MAX),
    notBefore: isoDate(tbs.validity.notBefore),
    notAfter: isoDate(tbs.validity.notAfter),
    nifVat,
    kind,
    store,
    location,
    holderNif,
  };
}
