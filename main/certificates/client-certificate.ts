/**
 * A certificate and its private key handed to a robot's browser on this PC (CertificateSource.clientCertificate).
 *
 * What Playwright's `clientCertificates` can use (checked in playwright-core 1.65): the browser does not
 * do the client authentication itself. Playwright's Node side puts a local SOCKS proxy in front of
 * Chromium and, for each listed origin, makes the TLS connection to the server on its own, with
 * `tls.createSecureContext({ pfx, passphrase })`. So the private key must be in the robot's process as
 * bytes, which works wherever the key can be exported:
 * - a .p12/.pfx folder: always (the file is the key);
 * - NSS (Linux, ~/.pki/nssdb): keys of NSS's soft token export with pk12util; a key on a smart card
 *   registered as a PKCS#11 module does not;
 * - Windows (CurrentUser\My): only keys imported as exportable (the FNMT download asks; many people say
 *   no). Smart cards (DNIe) and non-exportable CNG/CAPI keys cannot be used this way;
 * - macOS keychain: `security export` works for keys that allow it and asks the user to allow access to
 *   the keychain (once per key); Secure Enclave and smart-card keys cannot be exported.
 * The proxy also checks the portal's server certificate against Node's own CA list (Mozilla's), not the
 * OS store: a portal chained to a root missing there needs NODE_EXTRA_CA_CERTS.
 *
 * Where the key cannot be exported, the only way is the browser's own platform store: Edge/Chrome on
 * Windows sign with CNG (smart cards included), Chrome on macOS with the keychain, Chromium on Linux
 * with NSS. A headless browser cannot answer the certificate picker, so the policy
 * AutoSelectCertificateForUrls must choose it ('{"pattern":"https://[*.]sede.example","filter":
 * {"ISSUER":{"CN":"AC FNMT Usuarios"},"SUBJECT":{"CN":"..."}}}'). Policies are per user or machine,
 * not per launch (no command-line switch): HKCU\Software\Policies\Microsoft\Edge on Windows, a managed
 * preference (com.google.Chrome) on macOS, /etc/chromium/policies/managed/*.json (root) on Linux. That
 * needs an installer step and is not built yet: such a certificate fails the run with the message below.
 *
 * Every store's export is re-wrapped here (node-forge reads it; node:crypto encrypts the key) into a
 * PKCS#12 holding only the chosen certificate and its key, AES-256 under a fresh random passphrase:
 * exports hold other identities (the whole keychain) and legacy ciphers (RC2/3DES from Windows and
 * older NSS) that Node's OpenSSL 3 refuses. Nothing is written to disk in plain form.
 */
import { createHash, createHmac, randomBytes, type KeyObject } from 'node:crypto';
import forge from 'node-forge';
import { certificateStoreNames, type LocalCertificate } from '#shared/certificates/certificate.ts';
import { readPkcs12Natively } from './client-certificate-pkcs12.ts';
import { privateKeyFor, readPkcs12 } from './pkcs12-folder.ts';

export interface ClientCertificate {
  /** A PKCS#12 with the certificate and its key only. */
  pfx: Buffer;
  passphrase: string;
}

export const CERTIFICATE_NOT_HERE_MESSAGE = 'El certificado elegido no está en este dispositivo';
export const notExportableMessage = (detail: string) => `La clave de este certificado no se puede exportar: ${detail}`;

/** A one-off passphrase (hex: the same bytes whether a tool reads it as UTF-8 or as a BMPString). */
export function randomPassphrase(): string {
  return randomBytes(24).toString('hex');
}

export type SingleIdentity =
  | { kind: 'found'; certificate: ClientCertificate }
  /** The password does not open the export. */
  | { kind: 'locked' }
  | { kind: 'unreadable' }
  /** Not in it, or in it without its key. */
  | { kind: 'missing' }
  | { kind: 'keyless' };

/**
 * The identity with this fingerprint out of a store's PKCS#12 export, alone in a new PKCS#12 under a new
 * passphrase. `password` null tries the empty password. Read natively when it can be (PBES2), by forge
 * otherwise (legacy ciphers).
 */
export async function singleIdentityPkcs12(exported: Uint8Array, password: string | null, fingerprint: string): Promise<SingleIdentity> {
  const native = await readPkcs12Natively(exported, password ?? '');
  const contents = native?.kind === 'read' ? native : readPkcs12(exported, password);
  if (contents.kind !== 'read') return contents;
  const der = contents.certificates.find((candidate) => sha256(candidate) === fingerprint);
  if (der === undefined) return { kind: 'missing' };
  const key = privateKeyFor(der, contents.keys);
  if (key === undefined) return { kind: 'keyless' };
  const passphrase = randomPassphrase();
  return { kind: 'found', certificate: { pfx: writePkcs12(der, key, passphrase), passphrase } };
}

const OID = {
  data: '1.2.840.113549.1.7.1',
  shroudedKeyBag: '1.2.840.113549.1.12.10.1.2',
  certBag: '1.2.840.113549.1.12.10.1.3',
  x509Certificate: '1.2.840.113549.1.9.22.1',
  localKeyId: '1.2.840.113549.1.9.21',
  sha256: '2.16.840.1.101.3.4.2.1',
} as const;
const MAC_ITERATIONS = 2048;

/**
 * A PKCS#12 as OpenSSL 3 writes one: the key as PKCS#8 encrypted by node:crypto (PBES2, AES-256-CBC;
 * RSA and EC alike, which forge's own writer is not), the certificate in a plain data safe, both tied
 * by a localKeyId, and an HMAC-SHA256 MAC over the whole (PKCS#12 key derivation by forge).
 */
export function writePkcs12(certificateDer: Uint8Array, key: KeyObject, passphrase: string): Buffer {
  const { asn1 } = forge;
  const universal = asn1.Class.UNIVERSAL;
  const sequence = (items: forge.asn1.Asn1[]) => asn1.create(universal, asn1.Type.SEQUENCE, true, items);
  const set = (items: forge.asn1.Asn1[]) => asn1.create(universal, asn1.Type.SET, true, items);
  const oid = (value: string) => asn1.create(universal, asn1.Type.OID, false, asn1.oidToDer(value).getBytes());
  const octets = (binary: string) => asn1.create(universal, asn1.Type.OCTETSTRING, false, binary);
  const explicit = (tag: number, inner: forge.asn1.Asn1) => asn1.create(asn1.Class.CONTEXT_SPECIFIC, tag, true, [inner]);
  const integer = (value: number) => asn1.create(universal, asn1.Type.INTEGER, false, asn1.integerToDer(value).getBytes());
  const der = (value: forge.asn1.Asn1) => asn1.toDer(value).getBytes();
  const dataContent = (inner: forge.asn1.Asn1) => sequence([oid(OID.data), explicit(0, octets(der(inner)))]);

  const localKeyId = set([sequence([oid(OID.localKeyId), set([octets(createHash('sha1').update(certificateDer).digest('binary'))])])]);
  const certificateBag = sequence([
    oid(OID.certBag),
    explicit(0, sequence([oid(OID.x509Certificate), explicit(0, octets(Buffer.from(certificateDer).toString('binary')))])),
    localKeyId,
  ]);
  const shrouded = key.export({ type: 'pkcs8', format: 'der', cipher: 'aes-256-cbc', passphrase });
  const keyBag = sequence([oid(OID.shroudedKeyBag), explicit(0, asn1.fromDer(shrouded.toString('binary'))), localKeyId]);
  const authenticatedSafe = der(sequence([dataContent(sequence([certificateBag])), dataContent(sequence([keyBag]))]));

  const salt = randomBytes(16).toString('binary');
  const macKey = forge.pkcs12.generateKey(passphrase, forge.util.createBuffer(salt), 3, MAC_ITERATIONS, 32, forge.md.sha256.create()).getBytes();
  const mac = createHmac('sha256', Buffer.from(macKey, 'binary')).update(Buffer.from(authenticatedSafe, 'binary')).digest('binary');
  const pfx = sequence([
    integer(3),
    sequence([oid(OID.data), explicit(0, octets(authenticatedSafe))]),
    sequence([sequence([sequence([oid(OID.sha256), asn1.create(universal, asn1.Type.NULL, false, '')]), octets(mac)]), octets(salt), integer(MAC_ITERATIONS)]),
  ]);
  return Buffer.from(der(pfx), 'binary');
}

/** Where the service finds each store's export of a listed certificate. */
export interface ClientCertificateStores {
  /** The .p12/.pfx file named by `location` in the chosen folder, with its stored password (null: none). */
  pkcs12File(location: string): Promise<{ bytes: Uint8Array; password: string | null }>;
  /** Each OS store's PKCS#12 export holding the certificate (and maybe others), under `password`. */
  exportFromStore(certificate: LocalCertificate, password: string): Promise<Uint8Array>;
}

/** The listed certificate, out of the store it was found in. Throws a Spanish Error. */
export async function exportClientCertificate(certificate: LocalCertificate, stores: ClientCertificateStores): Promise<ClientCertificate> {
  if (certificate.store === 'pkcs12') {
    const file = certificate.location;
    const { bytes, password } = await stores.pkcs12File(file);
    const found = await singleIdentityPkcs12(bytes, password, certificate.fingerprint);
    switch (found.kind) {
      case 'found':
        return found.certificate;
      case 'locked':
        throw new Error(`La contraseña guardada ya no abre ${file}: vuelve a escribirla.`);
      case 'unreadable':
        throw new Error(`El archivo ${file} no es un certificado .p12/.pfx válido.`);
      case 'missing':
        throw new Error(`${CERTIFICATE_NOT_HERE_MESSAGE}: ${file} ya no lo contiene.`);
      case 'keyless':
        throw new Error(notExportableMessage(`${file} no incluye su clave privada.`));
    }
  }
  const password = randomPassphrase();
  const exported = await stores.exportFromStore(certificate, password);
  const found = await singleIdentityPkcs12(exported, password, certificate.fingerprint);
  if (found.kind === 'found') return found.certificate;
  // A store leaves out of its export the keys it will not let go (the keychain skips them).
  if (found.kind === 'missing' || found.kind === 'keyless') throw new Error(notExportableMessage(`${certificateStoreNames[certificate.store]} no la entrega.`));
  throw new Error(`La exportación del certificado desde ${certificateStoreNames[certificate.store]} no se puede leer.`);
}

function sha256(der: Uint8Array): string {
  return createHash('sha256').update(der).digest('hex');
}
