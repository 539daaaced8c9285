import type { CertificateKind } from '#shared/certificates/certificate.ts';
import { compactIdentifier, isValidCif, isValidNie, isValidNif } from '#shared/validation/identifiers.ts';

/**
 * Who a Spanish certificate belongs to, read from its subject the way the issuers write it
 * (FNMT, DNIe, Camerfirma and the like; ETSI EN 319 412-1 semantics identifiers).
 * Pure functions over plain attribute lists, so any subject can be generated in a test.
 */

/** One attribute of a distinguished name: its OID and its text value. */
export interface NameAttribute {
  oid: string;
  value: string;
}

/** What the certificate says about its holder: the subject, the SAN directoryName(s) and its policy OIDs. */
export interface SubjectFacts {
  subject: readonly NameAttribute[];
  alternativeNames: readonly NameAttribute[];
  policies: readonly string[];
}

export interface CertificateIdentity {
  /** The person's NIF/NIE for a person certificate, the entity's CIF otherwise; null when none is readable. */
  nifVat: string | null;
  /** The represented company's certificate: the representative's own NIF; null for every other kind. */
  holderNif: string | null;
  kind: CertificateKind;
}

export const OID = {
  commonName: '2.5.4.3',
  surname: '2.5.4.4',
  serialNumber: '2.5.4.5',
  country: '2.5.4.6',
  organization: '2.5.4.10',
  organizationalUnit: '2.5.4.11',
  givenName: '2.5.4.42',
  organizationIdentifier: '2.5.4.97',
  /** FNMT's private attributes in the SubjectAltName directoryName. */
  fnmtNif: '1.3.6.1.4.1.5734.1.4',
  fnmtCif: '1.3.6.1.4.1.5734.1.7',
  /** Some FNMT-style profiles put the entity's CIF here instead. */
  fnmtEntityCif: '1.3.6.1.4.1.5734.1.15',
} as const;

/** ETSI EN 319 411-2 policies for certificates issued to a legal person: qualified e-seal certificates. */
const LEGAL_PERSON_POLICIES = new Set(['0.4.0.194112.1.1', '0.4.0.194112.1.3']);

/** ETSI semantics identifiers of a natural person in Spain: identity card, passport, personal number, tax id. */
const PERSON_ID_PREFIX = /^(?:IDC|PAS|PNO|TIN)ES/;
/** ETSI semantics identifier of a legal person's VAT number in Spain. */
const VAT_PREFIX = /^VATES/;

export function isPersonId(candidate: string): boolean {
  return isValidNif(candidate) || isValidNie(candidate);
}

/** The values of one attribute; more than one different value makes the source ambiguous, so none is trusted. */
function singleValue(attributes: readonly NameAttribute[], oid: string): string | null {
  const values = new Set(attributes.filter((attribute) => attribute.oid === oid).map((attribute) => compactIdentifier(attribute.value)));
  return values.size === 1 ? [...values][0] ?? null : null;
}

function withoutPrefix(value: string | null, prefix: RegExp): string | null {
  return value === null ? null : value.replace(prefix, '');
}

function textOf(attributes: readonly NameAttribute[], oid: string): string[] {
  return attributes.filter((attribute) => attribute.oid === oid).map((attribute) => attribute.value);
}

/** The attribute's text when the name has exactly one value for it. */
function onlyText(attributes: readonly NameAttribute[], oid: string): string | null {
  const values = new Set(textOf(attributes, oid));
  return values.size === 1 ? [...values][0] ?? null : null;
}

/** Uppercase, without accents: 'Sello electrónico' and 'SELLO ELECTRONICO' read the same. */
function plain(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase();
}

/** NIF/NIE-shaped and CIF-shaped words of a CN, whatever surrounds them ('- 12345678Z', 'NIF:12345678Z', '(R: B12345674)'). */
function identifierWords(commonName: string): string[] {
  return plain(commonName).match(/\b[0-9A-Z]{9}\b/g) ?? [];
}

/** The person's identifier in a CN: after ' - ' at the end, or leading the CN of a representative, or any word that is one. */
function personIdInCommonName(commonName: string): string | null {
  const text = plain(commonName).trim();
  const trailing = /-\s*(?:NIF:?\s*)?([0-9A-Z]{9})$/.exec(text)?.[1];
  const leading = /^([0-9A-Z]{9})\b/.exec(text)?.[1];
  for (const candidate of [trailing, leading, ...identifierWords(text)]) {
    if (candidate !== undefined && isPersonId(candidate)) return candidate;
  }
  return null;
}

/** The represented entity's CIF in a CN: '(R: B12345674)', else a word that is a CIF. */
function entityIdInCommonName(commonName: string): string | null {
  const text = plain(commonName);
  const represented = /\(R:\s*([0-9A-Z]{9})\s*\)/.exec(text)?.[1];
  for (const candidate of [represented, ...identifierWords(text)]) {
    if (candidate !== undefined && isValidCif(candidate)) return candidate;
  }
  return null;
}

function firstValid(candidates: readonly (string | null)[], isValid: (candidate: string) => boolean): string | null {
  for (const candidate of candidates) if (candidate !== null && isValid(candidate)) return candidate;
  return null;
}

/**
 * The holder's person identifier and the entity's CIF, each from the most reliable source that has a valid one:
 * the single serialNumber attribute (IDCES-…), organizationIdentifier (VATES-…), FNMT's SAN attributes, then the CN.
 */
export function readIdentifiers({ subject, alternativeNames }: Pick<SubjectFacts, 'subject' | 'alternativeNames'>): {
  personId: string | null;
  entityId: string | null;
} {
  const serialNumber = withoutPrefix(singleValue(subject, OID.serialNumber), PERSON_ID_PREFIX);
  const organizationIdentifier = withoutPrefix(singleValue(subject, OID.organizationIdentifier), VAT_PREFIX);
  const commonName = onlyText(subject, OID.commonName);

  const personId = firstValid(
    [serialNumber, singleValue(alternativeNames, OID.fnmtNif), commonName === null ? null : personIdInCommonName(commonName)],
    isPersonId,
  );
  const entityId = firstValid(
    [
      organizationIdentifier,
      singleValue(alternativeNames, OID.fnmtCif),
      singleValue(alternativeNames, OID.fnmtEntityCif),
      serialNumber,
      commonName === null ? null : entityIdInCommonName(commonName),
    ],
    isValidCif,
  );
  return { personId, entityId };
}

/** A 'sello' (e-seal) certificate: its CN or OU says so, or it carries a legal-person qualified policy. */
function isSeal({ subject, policies }: SubjectFacts): boolean {
  const says = [...textOf(subject, OID.commonName), ...textOf(subject, OID.organizationalUnit)].some((text) => /\bSELLO\b/.test(plain(text)));
  return says || policies.some((policy) => LEGAL_PERSON_POLICIES.has(policy));
}

/**
 * Kind and identifiers of a certificate (spec §3 Certificate):
 * - seal: a 'sello'; its NIF is the entity's CIF;
 * - representative: a person acting for an entity (a CIF next to the person's NIF, or '(R: ' in the CN);
 *   its NIF is the entity's CIF and the holder's NIF is kept apart;
 * - entity: an entity's CIF and no person;
 * - person: everything else, with the person's NIF/NIE when one is readable.
 */
export function identifyHolder(facts: SubjectFacts): CertificateIdentity {
  const { personId, entityId } = readIdentifiers(facts);
  if (isSeal(facts)) return { kind: 'seal', nifVat: entityId, holderNif: null };

  const representsSomeone = textOf(facts.subject, OID.commonName).some((text) => /\(R:/.test(plain(text)));
  if (personId !== null && (entityId !== null || representsSomeone)) {
    return { kind: 'representative', nifVat: entityId, holderNif: personId };
  }
  if (entityId !== null && personId === null) return { kind: 'entity', nifVat: entityId, holderNif: null };
  return { kind: 'person', nifVat: personId, holderNif: null };
}
