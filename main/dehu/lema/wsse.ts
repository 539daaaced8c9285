import { KeyObject, createPrivateKey, createPublicKey, sign, verify, type BinaryLike, type KeyLike } from 'node:crypto';
import type { SignatureAlgorithm, SignedXml } from 'xml-crypto';

/** The namespaces and algorithm URIs of SOAP 1.1 with WS-Security 1.0 (X.509 token profile), as LEMA takes them. */
export const NS = {
  soap: 'http://schemas.xmlsoap.org/soap/envelope/',
  wsse: 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd',
  wsu: 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd',
  ds: 'http://www.w3.org/2000/09/xmldsig#',
  xop: 'http://www.w3.org/2004/08/xop/include',
} as const;

export const X509_V3 = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509v3';
export const BASE64_BINARY = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary';
export const EXCLUSIVE_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
export const SHA256_DIGEST = 'http://www.w3.org/2001/04/xmlenc#sha256';
export const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
export const ECDSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256';

/** The signature methods we sign with and accept: SHA-1 is refused (DEHÚ no longer takes it). */
export const ACCEPTED_SIGNATURE_METHODS: readonly string[] = [RSA_SHA256, ECDSA_SHA256];

/** The method for a key: FNMT's certificates are RSA, the e2e ones EC. */
export function signatureMethodFor(key: KeyObject): string {
  if (key.asymmetricKeyType === 'rsa') return RSA_SHA256;
  if (key.asymmetricKeyType === 'ec') return ECDSA_SHA256;
  throw new Error(`Tipo de clave no admitido para firmar en DEHÚ: ${key.asymmetricKeyType ?? 'desconocido'}`);
}

type Callback<T> = (error: Error | null, value?: T) => void;

/**
 * ECDSA-SHA256 for xml-crypto, which has none built in. XML-DSig writes the value as r||s (RFC 4050 /
 * RFC 6931), not DER, hence dsaEncoding 'ieee-p1363'.
 */
export class EcdsaSha256 implements SignatureAlgorithm {
  getSignature(signedInfo: BinaryLike, privateKey: KeyLike): string;
  getSignature(signedInfo: BinaryLike, privateKey: KeyLike, callback?: Callback<string>): void;
  getSignature(signedInfo: BinaryLike, privateKey: KeyLike, callback?: Callback<string>): string | void {
    const value = sign('sha256', toBuffer(signedInfo), { key: privateKey instanceof KeyObject ? privateKey : createPrivateKey(privateKey), dsaEncoding: 'ieee-p1363' }).toString('base64');
    if (callback) return callback(null, value);
    return value;
  }

  verifySignature(material: string, key: KeyLike, signatureValue: string): boolean;
  verifySignature(material: string, key: KeyLike, signatureValue: string, callback?: Callback<boolean>): void;
  verifySignature(material: string, key: KeyLike, signatureValue: string, callback?: Callback<boolean>): boolean | void {
    let valid: boolean;
    try {
      valid = verify('sha256', Buffer.from(material, 'utf8'), { key: key instanceof KeyObject ? key : createPublicKey(key), dsaEncoding: 'ieee-p1363' }, Buffer.from(signatureValue, 'base64'));
    } catch {
      valid = false;
    }
    if (callback) return callback(null, valid);
    return valid;
  }

  getAlgorithmName(): string {
    return ECDSA_SHA256;
  }
}

function toBuffer(value: BinaryLike): Buffer {
  if (typeof value === 'string') return Buffer.from(value, 'utf8');
  if (Buffer.isBuffer(value)) return value;
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

/** Teaches one SignedXml instance the ECDSA method (the registry is per instance). */
export function registerEcdsa(signedXml: SignedXml): void {
  signedXml.SignatureAlgorithms[ECDSA_SHA256] = EcdsaSha256;
}
