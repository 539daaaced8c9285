/**
 * Test-only: real X.509 certificates and PKCS#12 files shaped like the ones Spanish advisory firms hold
 * (FNMT persona física, representante, entidad, sello), with RSA or EC keys. The DER is built here with
 * node-forge's ASN.1 writer and signed with node:crypto, because node-forge can neither sign with an EC
 * key nor put arbitrary attributes (organizationIdentifier, FNMT's SAN OIDs) in a subject the way the
 * issuers do. For the tests, the e2e and the bench; never imported by the app.
 *
 * Subject layouts (what the issuers really write):
 *   person          C=ES, serialNumber=IDCES-<NIF>, GN=<given>, SN=<surnames>, CN=<SURNAMES GIVEN - NIF>
 *   representative  C=ES, 2.5.4.97=VATES-<CIF>, O=<firm>, serialNumber=IDCES-<NIF>, GN, SN, CN=<NIF GIVEN SURNAMES (R: CIF)>
 *   entity          C=ES, 2.5.4.97=VATES-<CIF>, O=<firm>, CN=<FIRM>
 *   seal            C=ES, 2.5.4.97=VATES-<CIF>, O=<firm>, OU=SELLO ELECTRONICO, CN=SELLO DE <FIRM>
 * Person and representative certificates also carry FNMT's SubjectAltName directoryName
 * (1.3.6.1.4.1.5734.1.1 nombre, .2 apellido1, .3 apellido2, .4 NIF; .6 razón social, .7 CIF for firms).
 */
import { createHash, createHmac, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import forge from 'node-forge';
import { OID as SUBJECT_OID } from '../subject.ts';

const { asn1 } = forge;
type Asn1 = forge.asn1.Asn1;

/** The subject OIDs the app reads (subject.ts), plus FNMT's SAN name parts and the key usages tests set. */
export const OID = {
  ...SUBJECT_OID,
  fnmtName: '1.3.6.1.4.1.5734.1.1',
  fnmtSurname1: '1.3.6.1.4.1.5734.1.2',
  fnmtSurname2: '1.3.6.1.4.1.5734.1.3',
  fnmtCompanyName: '1.3.6.1.4.1.5734.1.6',
  clientAuth: '1.3.6.1.5.5.7.3.2',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  emailProtection: '1.3.6.1.5.5.7.3.4',
} as const;

export type SubjectAttribute = { oid: string; value: string };

export interface TestCertificateOptions {
  kind?: 'person' | 'representative' | 'entity' | 'seal';
  /** Holder's given name and surnames (person, representative). */
  givenName?: string;
  surnames?: string;
  /** Holder's NIF/NIE (person, representative). */
  nif?: string;
  /** The firm's CIF and name (representative, entity, seal). */
  cif?: string;
  organization?: string;
  /** Replaces the whole subject (order as written, C first); the kind's SAN is still added unless `noSan`. */
  subject?: SubjectAttribute[];
  noSan?: boolean;
  keyType?: 'rsa' | 'ec';
  /** Reuse a key (RSA key generation is the slow part of making many certificates). */
  keyPair?: TestKeyPair;
  notBefore?: Date;
  notAfter?: Date;
  /** Extended key usages (OIDs); null leaves the extension out. Default: clientAuth + emailProtection. */
  extendedKeyUsage?: string[] | null;
  /** A certification authority (basicConstraints cA, keyCertSign). */
  ca?: boolean;
  /** Who signs it; default: the shared test 'AC FNMT Usuarios' for people, 'AC Representación' for firms. */
  issuer?: TestCertificate;
}

export interface TestKeyPair {
  privateKey: KeyObject;
  publicKey: KeyObject;
}

export interface TestCertificate {
  der: Uint8Array;
  pem: string;
  /** SHA-256 of the DER, lowercase hex (what the app calls the fingerprint). */
  fingerprint: string;
  commonName: string;
  subject: SubjectAttribute[];
  keyPair: TestKeyPair;
}

/** A fresh key pair: RSA 2048 like FNMT's, or EC P-256 (fast; the bench uses it). */
export function createTestKeyPair(keyType: 'rsa' | 'ec' = 'rsa'): TestKeyPair {
  return keyType === 'rsa' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: 'P-256' });
}

const authorities = new Map<string, TestCertificate>();

/** The shared test CA of that name (one per process), e.g. 'AC FNMT Usuarios'. */
export function testAuthority(commonName: string): TestCertificate {
  let authority = authorities.get(commonName);
  if (!authority) {
    const keyPair = createTestKeyPair('ec');
    const subject = [
      { oid: OID.country, value: 'ES' },
      { oid: OID.organization, value: 'FNMT-RCM' },
      { oid: OID.organizationalUnit, value: 'Ceres' },
      { oid: OID.commonName, value: commonName },
    ];
    const notBefore = new Date(Date.UTC(2020, 0, 1));
    const notAfter = new Date(Date.UTC(2045, 0, 1));
    authority = buildCertificate({ subject, issuerName: subject, issuerKey: keyPair.privateKey, keyPair, notBefore, notAfter, ca: true, extendedKeyUsage: null, san: null });
    authorities.set(commonName, authority);
  }
  return authority;
}

/** A certificate with a Spanish subject, signed by a test CA; defaults make a valid FNMT persona física. */
export function createTestCertificate(options: TestCertificateOptions = {}): TestCertificate {
  const kind = options.kind ?? 'person';
  const givenName = options.givenName ?? 'ELENA';
  const surnames = options.surnames ?? 'RODRIGUEZ GARCIA';
  const nif = options.nif ?? '78816596N';
  const cif = options.cif ?? 'B12345674';
  const organization = options.organization ?? 'ASESORIA EJEMPLO SL';
  const subject = options.subject ?? subjectFor(kind, { givenName, surnames, nif, cif, organization });
  const san = options.noSan ? null : sanFor(kind, { givenName, surnames, nif, cif, organization });
  const issuer = options.issuer ?? testAuthority(kind === 'person' ? 'AC FNMT Usuarios' : 'AC Representación');
  const notBefore = options.notBefore ?? new Date(Date.now() - 30 * 86_400_000);
  const notAfter = options.notAfter ?? new Date(notBefore.getTime() + 4 * 365 * 86_400_000);
  return buildCertificate({
    subject,
    issuerName: issuer.subject,
    issuerKey: issuer.keyPair.privateKey,
    keyPair: options.keyPair ?? createTestKeyPair(options.keyType ?? 'rsa'),
    notBefore,
    notAfter,
    ca: options.ca ?? false,
    extendedKeyUsage: options.extendedKeyUsage === undefined ? [OID.clientAuth, OID.emailProtection] : options.extendedKeyUsage,
    san,
  });
}

interface People {
  givenName: string;
  surnames: string;
  nif: string;
  cif: string;
  organization: string;
}

function subjectFor(kind: NonNullable<TestCertificateOptions['kind']>, who: People): SubjectAttribute[] {
  const country = { oid: OID.country, value: 'ES' };
  const firm = [
    { oid: OID.organizationIdentifier, value: `VATES-${who.cif}` },
    { oid: OID.organization, value: who.organization },
  ];
  const person = [
    { oid: OID.serialNumber, value: `IDCES-${who.nif}` },
    { oid: OID.givenName, value: who.givenName },
    { oid: OID.surname, value: who.surnames },
  ];
  switch (kind) {
    case 'person':
      return [country, ...person, { oid: OID.commonName, value: `${who.surnames} ${who.givenName} - ${who.nif}` }];
    case 'representative':
      return [country, ...firm, ...person, { oid: OID.commonName, value: `${who.nif} ${who.givenName} ${who.surnames} (R: ${who.cif})` }];
    case 'entity':
      return [country, ...firm, { oid: OID.commonName, value: who.organization }];
    case 'seal':
      return [country, ...firm, { oid: OID.organizationalUnit, value: 'SELLO ELECTRONICO' }, { oid: OID.commonName, value: `SELLO DE ${who.organization}` }];
  }
}

function sanFor(kind: NonNullable<TestCertificateOptions['kind']>, who: People): SubjectAttribute[] | null {
  const [surname1 = '', ...rest] = who.surnames.split(' ');
  const person = [
    { oid: OID.fnmtName, value: who.givenName },
    { oid: OID.fnmtSurname1, value: surname1 },
    { oid: OID.fnmtSurname2, value: rest.join(' ') },
    { oid: OID.fnmtNif, value: who.nif },
  ];
  const firm = [
    { oid: OID.fnmtCompanyName, value: who.organization },
    { oid: OID.fnmtCif, value: who.cif },
  ];
  if (kind === 'person') return person;
  if (kind === 'representative') return [...person, ...firm];
  return firm;
}

interface CertificateParts {
  subject: SubjectAttribute[];
  issuerName: SubjectAttribute[];
  issuerKey: KeyObject;
  keyPair: TestKeyPair;
  notBefore: Date;
  notAfter: Date;
  ca: boolean;
  extendedKeyUsage: string[] | null;
  san: SubjectAttribute[] | null;
}

const universal = asn1.Class.UNIVERSAL;
const oid = (dotted: string) => asn1.create(universal, asn1.Type.OID, false, asn1.oidToDer(dotted).getBytes());
const sequence = (items: Asn1[]) => asn1.create(universal, asn1.Type.SEQUENCE, true, items);
const set = (items: Asn1[]) => asn1.create(universal, asn1.Type.SET, true, items);
const octets = (bytes: string) => asn1.create(universal, asn1.Type.OCTETSTRING, false, bytes);
const explicit = (tag: number, inner: Asn1) => asn1.create(asn1.Class.CONTEXT_SPECIFIC, tag, true, [inner]);
const integer = (bytes: string) => asn1.create(universal, asn1.Type.INTEGER, false, bytes);
const binary = (bytes: Uint8Array) => Buffer.from(bytes).toString('binary');
const derOf = (node: Asn1) => Buffer.from(asn1.toDer(node).getBytes(), 'binary');

/** Country and serialNumber are PrintableString in real certificates; the rest UTF8String. */
function name(attributes: SubjectAttribute[]): Asn1 {
  return sequence(
    attributes.map(({ oid: type, value }) => {
      const printable = type === OID.country || type === OID.serialNumber;
      const text = printable ? value : forge.util.encodeUtf8(value);
      return set([sequence([oid(type), asn1.create(universal, printable ? asn1.Type.PRINTABLESTRING : asn1.Type.UTF8, false, text)])]);
    }),
  );
}

function time(date: Date): Asn1 {
  return date.getUTCFullYear() < 2050
    ? asn1.create(universal, asn1.Type.UTCTIME, false, asn1.dateToUtcTime(date))
    : asn1.create(universal, asn1.Type.GENERALIZEDTIME, false, asn1.dateToGeneralizedTime(date));
}

function extension(type: string, critical: boolean, value: Asn1): Asn1 {
  const parts = [oid(type)];
  if (critical) parts.push(asn1.create(universal, asn1.Type.BOOLEAN, false, '\xff'));
  parts.push(octets(asn1.toDer(value).getBytes()));
  return sequence(parts);
}

function signatureAlgorithm(key: KeyObject): Asn1 {
  return key.asymmetricKeyType === 'rsa'
    ? sequence([oid('1.2.840.113549.1.1.11'), asn1.create(universal, asn1.Type.NULL, false, '')])
    : sequence([oid('1.2.840.10045.4.3.2')]);
}

function buildCertificate(parts: CertificateParts): TestCertificate {
  const serial = randomBytes(16);
  serial[0] = (serial[0] ?? 0) & 0x7f || 0x01; // positive, no leading zero byte
  const spki = parts.keyPair.publicKey.export({ type: 'spki', format: 'der' });
  const keyUsageBits = parts.ca ? '\x01\x06' : '\x05\xa0'; // keyCertSign+cRLSign | digitalSignature+keyEncipherment
  const extensions = [
    extension('2.5.29.19', true, sequence(parts.ca ? [asn1.create(universal, asn1.Type.BOOLEAN, false, '\xff')] : [])),
    extension('2.5.29.15', true, asn1.create(universal, asn1.Type.BITSTRING, false, keyUsageBits)),
    extension('2.5.29.14', false, octets(createHash('sha1').update(spki).digest('binary'))),
  ];
  if (parts.extendedKeyUsage) extensions.push(extension('2.5.29.37', false, sequence(parts.extendedKeyUsage.map(oid))));
  if (parts.san) extensions.push(extension('2.5.29.17', false, sequence([explicit(4, name(parts.san))])));

  const algorithm = signatureAlgorithm(parts.issuerKey);
  const tbs = sequence([
    explicit(0, integer('\x02')),
    integer(serial.toString('binary')),
    algorithm,
    name(parts.issuerName),
    sequence([time(parts.notBefore), time(parts.notAfter)]),
    name(parts.subject),
    asn1.fromDer(spki.toString('binary')),
    explicit(3, sequence(extensions)),
  ]);
  const tbsDer = derOf(tbs);
  const signature = sign('sha256', tbsDer, parts.issuerKey);
  const certificate = sequence([tbs, signatureAlgorithm(parts.issuerKey), asn1.create(universal, asn1.Type.BITSTRING, false, `\x00${signature.toString('binary')}`)]);
  const der = new Uint8Array(derOf(certificate));
  const base64 = Buffer.from(der).toString('base64');
  return {
    der,
    pem: `-----BEGIN CERTIFICATE-----\n${base64.match(/.{1,64}/g)?.join('\n')}\n-----END CERTIFICATE-----\n`,
    fingerprint: createHash('sha256').update(der).digest('hex'),
    commonName: parts.subject.find((attribute) => attribute.oid === OID.commonName)?.value ?? '',
    subject: parts.subject,
    keyPair: parts.keyPair,
  };
}

export interface Pkcs12Options {
  /** Leave the private key out (a file with only certificates: nothing in it can be used to sign). */
  withoutKey?: boolean;
  /** Other certificates to carry without their keys (the CA chain, someone else's certificate). */
  extraCertificates?: TestCertificate[];
  friendlyName?: string;
  /** PBKDF2 / MAC iterations; real files use 2048 or more. */
  iterations?: number;
}

const PKCS12 = {
  data: '1.2.840.113549.1.7.1',
  shroudedKeyBag: '1.2.840.113549.1.12.10.1.2',
  certBag: '1.2.840.113549.1.12.10.1.3',
  x509Certificate: '1.2.840.113549.1.9.22.1',
  friendlyName: '1.2.840.113549.1.9.20',
  localKeyId: '1.2.840.113549.1.9.21',
  sha256: '2.16.840.1.101.3.4.2.1',
} as const;

/**
 * A PKCS#12 (.p12/.pfx) file as OpenSSL 3 writes one by default: the key as a PBES2 (AES-256-CBC,
 * PBKDF2-HMAC-SHA256) shrouded key bag, the certificates in a plain data safe, an HMAC-SHA256 MAC
 * over the whole. An empty password is a password like any other (the MAC still uses it).
 */
export function createPkcs12(certificate: TestCertificate, password: string, options: Pkcs12Options = {}): Uint8Array {
  return createPkcs12Bundle(options.withoutKey ? [] : [certificate], password, {
    ...options,
    extraCertificates: options.withoutKey ? [certificate, ...(options.extraCertificates ?? [])] : options.extraCertificates,
  });
}

/**
 * One PKCS#12 file holding many certificates, each with its key (pk12util imports them all in one go:
 * how the bench fills an NSS database with 200 in a second instead of 200 processes).
 */
export function createPkcs12Bundle(holders: TestCertificate[], password: string, options: Omit<Pkcs12Options, 'withoutKey'> = {}): Uint8Array {
  const iterations = options.iterations ?? 2048;
  const attributes = (localKeyId: string | null) => {
    const list: Asn1[] = [];
    if (options.friendlyName) {
      // forge writes a BMPSTRING's JavaScript string as UTF-16BE itself.
      list.push(sequence([oid(PKCS12.friendlyName), set([asn1.create(universal, asn1.Type.BMPSTRING, false, options.friendlyName)])]));
    }
    if (localKeyId !== null) list.push(sequence([oid(PKCS12.localKeyId), set([octets(localKeyId)])]));
    return set(list);
  };
  const certBag = (der: Uint8Array, localKeyId: string | null) =>
    sequence([oid(PKCS12.certBag), explicit(0, sequence([oid(PKCS12.x509Certificate), explicit(0, octets(binary(der)))])), attributes(localKeyId)]);
  const dataContent = (inner: Asn1) => sequence([oid(PKCS12.data), explicit(0, octets(asn1.toDer(inner).getBytes()))]);
  const keyIdOf = (holder: TestCertificate) => createHash('sha1').update(holder.der).digest('binary');

  const bags = [...holders.map((holder) => certBag(holder.der, keyIdOf(holder))), ...(options.extraCertificates ?? []).map((extra) => certBag(extra.der, null))];
  const safes = [dataContent(sequence(bags))];
  if (holders.length > 0) {
    const keyBags = holders.map((holder) => {
      const shrouded = holder.keyPair.privateKey.export({ type: 'pkcs8', format: 'der', cipher: 'aes-256-cbc', passphrase: password });
      return sequence([oid(PKCS12.shroudedKeyBag), explicit(0, asn1.fromDer(shrouded.toString('binary'))), attributes(keyIdOf(holder))]);
    });
    safes.push(dataContent(sequence(keyBags)));
  }
  const authenticatedSafe = asn1.toDer(sequence(safes)).getBytes();

  const macSalt = randomBytes(8).toString('binary');
  const macKey = forge.pkcs12.generateKey(password, forge.util.createBuffer(macSalt), 3, iterations, 32, forge.md.sha256.create()).getBytes();
  const mac = createHmac('sha256', Buffer.from(macKey, 'binary')).update(Buffer.from(authenticatedSafe, 'binary')).digest('binary');
  const pfx = sequence([
    integer('\x03'),
    sequence([oid(PKCS12.data), explicit(0, octets(authenticatedSafe))]),
    sequence([
      sequence([sequence([oid(PKCS12.sha256), asn1.create(universal, asn1.Type.NULL, false, '')]), octets(mac)]),
      octets(macSalt),
      integer(integerBytes(iterations)),
    ]),
  ]);
  return new Uint8Array(derOf(pfx));
}

function integerBytes(value: number): string {
  let hex = value.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  if (Number.parseInt(hex.slice(0, 2), 16) >= 0x80) hex = `00${hex}`;
  return Buffer.from(hex, 'hex').toString('binary');
}

/** The PEM of a key, for tests that check it never leaks into a result. */
export function privateKeyPem(certificate: TestCertificate): string {
  return certificate.keyPair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}
