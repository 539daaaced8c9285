/**
 * A fast reader of the PKCS#12 exports modern tools write (PBES2: PBKDF2 + AES or 3DES), with the key
 * derivation in node:crypto instead of node-forge's JavaScript. It matters: pk12util (NSS 3.9x) and
 * OpenSSL 3 derive with 600,000 PBKDF2 iterations, about half a minute in forge and a fraction of a
 * second natively, off the main thread. Certificates come out as the exact bytes in the file.
 *
 * The MAC is not checked: its key comes from PKCS#12's own derivation, which node:crypto lacks (forge
 * again, for 600,000 iterations). The bytes come straight from a store's export under a password we
 * chose; a wrong password fails the decryption, and a key is only used with the certificate it opens.
 * Anything else (legacy PKCS#12 PBE ciphers, an unexpected layout) returns null and is left to forge.
 */
import { createDecipheriv, createPrivateKey, pbkdf2 } from 'node:crypto';
import { promisify } from 'node:util';
import forge from 'node-forge';
import type { Pkcs12Contents } from './pkcs12-folder.ts';

const derive = promisify(pbkdf2);
type Asn1 = forge.asn1.Asn1;

const OID = {
  data: '1.2.840.113549.1.7.1',
  encryptedData: '1.2.840.113549.1.7.6',
  keyBag: '1.2.840.113549.1.12.10.1.1',
  shroudedKeyBag: '1.2.840.113549.1.12.10.1.2',
  certBag: '1.2.840.113549.1.12.10.1.3',
  x509Certificate: '1.2.840.113549.1.9.22.1',
  pbes2: '1.2.840.113549.1.5.13',
  pbkdf2: '1.2.840.113549.1.5.12',
} as const;

const PRF_DIGESTS: Record<string, string> = {
  '1.2.840.113549.2.7': 'sha1',
  '1.2.840.113549.2.8': 'sha224',
  '1.2.840.113549.2.9': 'sha256',
  '1.2.840.113549.2.10': 'sha384',
  '1.2.840.113549.2.11': 'sha512',
};
const CIPHERS: Record<string, { name: string; keyLength: number }> = {
  '2.16.840.1.101.3.4.1.2': { name: 'aes-128-cbc', keyLength: 16 },
  '2.16.840.1.101.3.4.1.22': { name: 'aes-192-cbc', keyLength: 24 },
  '2.16.840.1.101.3.4.1.42': { name: 'aes-256-cbc', keyLength: 32 },
  '1.2.840.113549.3.7': { name: 'des-ede3-cbc', keyLength: 24 },
};

/** Not a layout or cipher this reader knows: forge reads it instead. */
class Unsupported extends Error {}
/** The password did not decrypt it. */
class WrongPassword extends Error {}

/** The file's certificates and keys; null when forge should read it (see above). */
export async function readPkcs12Natively(bytes: Uint8Array, password: string): Promise<Pkcs12Contents | null> {
  try {
    const pfx = parse(Buffer.from(bytes).toString('binary'));
    const authSafe = child(pfx, 1);
    if (oidOf(child(authSafe, 0)) !== OID.data) throw new Unsupported('public-key protected PKCS#12');
    const contents: Pkcs12Contents & { kind: 'read' } = { kind: 'read', certificates: [], keys: [] };
    for (const info of children(parse(octets(explicitContent(authSafe))))) {
      const type = oidOf(child(info, 0));
      let safeContents: string;
      if (type === OID.data) safeContents = octets(explicitContent(info));
      else if (type === OID.encryptedData) safeContents = await decryptContent(child(explicitContent(info), 1), password);
      else throw new Unsupported(`content ${type}`);
      for (const bag of children(parse(safeContents))) await readBag(bag, password, contents);
    }
    return contents;
  } catch (error) {
    if (error instanceof WrongPassword) return { kind: 'locked' };
    return null;
  }
}

async function readBag(bag: Asn1, password: string, contents: Pkcs12Contents & { kind: 'read' }): Promise<void> {
  const type = oidOf(child(bag, 0));
  const value = explicitContent(bag);
  if (type === OID.certBag) {
    if (oidOf(child(value, 0)) !== OID.x509Certificate) return; // an SDSI certificate: nothing Chromium uses
    contents.certificates.push(new Uint8Array(Buffer.from(octets(explicitContent(value)), 'binary')));
  } else if (type === OID.keyBag) {
    contents.keys.push(privateKey(forge.asn1.toDer(value).getBytes()));
  } else if (type === OID.shroudedKeyBag) {
    const plain = await decrypt(child(value, 0), octets(child(value, 1)), password);
    contents.keys.push(privateKey(plain));
  }
  // CRL and secret bags, and nested safe contents, carry nothing a browser needs.
}

function privateKey(pkcs8: string) {
  try {
    return createPrivateKey({ key: Buffer.from(pkcs8, 'binary'), format: 'der', type: 'pkcs8' });
  } catch {
    // Decrypted under the wrong password and still well padded (1 time in 256): garbage.
    throw new WrongPassword();
  }
}

/** EncryptedContentInfo: contentType, contentEncryptionAlgorithm, [0] IMPLICIT encryptedContent. */
function decryptContent(encryptedContentInfo: Asn1, password: string): Promise<string> {
  const encrypted = child(encryptedContentInfo, 2);
  return decrypt(child(encryptedContentInfo, 1), octets(encrypted), password);
}

/** PBES2 (RFC 8018): PBKDF2 with an HMAC, then a CBC cipher. The password as UTF-8, as OpenSSL and NSS do. */
async function decrypt(algorithm: Asn1, encrypted: string, password: string): Promise<string> {
  if (oidOf(child(algorithm, 0)) !== OID.pbes2) throw new Unsupported('not PBES2');
  const parameters = child(algorithm, 1);
  const keyDerivation = child(parameters, 0);
  const scheme = child(parameters, 1);
  if (oidOf(child(keyDerivation, 0)) !== OID.pbkdf2) throw new Unsupported('not PBKDF2');
  const pbkdf2Parameters = children(child(keyDerivation, 1));
  if (pbkdf2Parameters[0]?.type !== forge.asn1.Type.OCTETSTRING) throw new Unsupported('salt from another source');
  const salt = octets(pbkdf2Parameters[0]);
  const iterations = integer(pbkdf2Parameters[1]);
  const prf = pbkdf2Parameters.find((part) => part.type === forge.asn1.Type.SEQUENCE);
  const digest = prf === undefined ? 'sha1' : PRF_DIGESTS[oidOf(child(prf, 0))];
  const cipher = CIPHERS[oidOf(child(scheme, 0))];
  if (digest === undefined || cipher === undefined || iterations < 1 || iterations > 10_000_000) throw new Unsupported('cipher or digest');
  const key = await derive(Buffer.from(password, 'utf8'), Buffer.from(salt, 'binary'), iterations, cipher.keyLength, digest);
  const decipher = createDecipheriv(cipher.name, key, Buffer.from(octets(child(scheme, 1)), 'binary'));
  try {
    return Buffer.concat([decipher.update(Buffer.from(encrypted, 'binary')), decipher.final()]).toString('binary');
  } catch {
    throw new WrongPassword();
  }
}

// ---------------------------------------------------------------------------------------------------
// forge's ASN.1 tree, read defensively: any surprise is Unsupported, and forge gets its turn.

function parse(der: string): Asn1 {
  return forge.asn1.fromDer(der, false);
}

function children(node: Asn1 | undefined): Asn1[] {
  if (node === undefined || !Array.isArray(node.value)) throw new Unsupported('expected a constructed value');
  return node.value;
}

function child(node: Asn1 | undefined, index: number): Asn1 {
  const found = children(node)[index];
  if (found === undefined) throw new Unsupported(`missing element ${index}`);
  return found;
}

/** The inside of an [0] EXPLICIT wrapper (ContentInfo's content, a bag's value). */
function explicitContent(node: Asn1): Asn1 {
  const wrapper = children(node).find((part) => part.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && part.type === 0);
  if (wrapper === undefined) throw new Unsupported('no [0] content');
  return child(wrapper, 0);
}

/** An OCTET STRING's bytes, joined when a BER encoder split it into pieces. */
function octets(node: Asn1 | undefined): string {
  if (node === undefined) throw new Unsupported('missing octets');
  if (typeof node.value === 'string') return node.value;
  return node.value.map((piece) => octets(piece)).join('');
}

function oidOf(node: Asn1): string {
  if (node.type !== forge.asn1.Type.OID || typeof node.value !== 'string') throw new Unsupported('expected an OID');
  return forge.asn1.derToOid(node.value);
}

function integer(node: Asn1 | undefined): number {
  if (node === undefined || node.type !== forge.asn1.Type.INTEGER || typeof node.value !== 'string') throw new Unsupported('expected an INTEGER');
  return forge.util.createBuffer(node.value).getInt(node.value.length * 8);
}
