import { X509Certificate, createHash, randomUUID, type KeyObject } from 'node:crypto';
import { SignedXml } from 'xml-crypto';
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import { readPkcs12Natively } from '../../certificates/client-certificate-pkcs12.ts';
import { privateKeyFor, readPkcs12 } from '../../certificates/pkcs12-folder.ts';
import { LemaError } from '../types.ts';
import { BASE64_BINARY, EXCLUSIVE_C14N, NS, SHA256_DIGEST, X509_V3, registerEcdsa, signatureMethodFor } from './wsse.ts';

/**
 * WS-Security for LEMA (external-systems §1.5): a wsse:Security header with a 5-minute wsu:Timestamp,
 * the certificate as a BinarySecurityToken, and a ds:Signature (exclusive C14N, SHA-256) over the Body
 * and the Timestamp whose KeyInfo points at the token. The same certificate is the TLS client certificate.
 */

export const TIMESTAMP_LIFETIME_MS = 5 * 60_000;

/** The certificate and its key, taken out of the in-memory PKCS#12 once per client. */
export interface SigningIdentity {
  privateKey: KeyObject;
  certificateDer: Uint8Array;
  certificate: X509Certificate;
}

/** Reads the first certificate that has its key in the PKCS#12 (the natively readable layout first, forge otherwise). */
export async function readSigningIdentity(pfx: Uint8Array, passphrase: string): Promise<SigningIdentity> {
  const native = await readPkcs12Natively(pfx, passphrase);
  const contents = native?.kind === 'read' ? native : readPkcs12(pfx, passphrase);
  if (contents.kind === 'locked') throw new LemaError('No se ha podido abrir el certificado elegido: la contraseña no es correcta.', null);
  if (contents.kind !== 'read') throw new LemaError('No se ha podido abrir el certificado elegido.', null);
  for (const der of contents.certificates) {
    const privateKey = privateKeyFor(der, contents.keys);
    if (privateKey !== undefined) return { privateKey, certificateDer: der, certificate: new X509Certificate(der) };
  }
  throw new LemaError('El certificado elegido no incluye su clave privada: no puede firmar las peticiones a DEHÚ.', null);
}

/** UTC without milliseconds, as WS-Security timestamps are usually written. */
function utcSeconds(instant: Date): string {
  return `${instant.toISOString().slice(0, 19)}Z`;
}

/**
 * A signed SOAP 1.1 envelope: `writeBody` adds the operation element to the Body.
 * Ids are fresh per message so a replayed part cannot be confused with another.
 */
export function signedEnvelope(writeBody: (body: XMLBuilder) => void, identity: SigningIdentity, now: Date): string {
  const suffix = randomUUID();
  const ids = { timestamp: `TS-${suffix}`, token: `X509-${suffix}`, body: `Body-${suffix}` };
  const document = create({ version: '1.0', encoding: 'UTF-8' });
  const envelope = document.ele(NS.soap, 'soapenv:Envelope');
  const security = envelope
    .ele(NS.soap, 'soapenv:Header')
    .ele(NS.wsse, 'wsse:Security')
    .att('xmlns:wsu', NS.wsu)
    .att(NS.soap, 'soapenv:mustUnderstand', '1');
  const timestamp = security.ele(NS.wsu, 'wsu:Timestamp').att(NS.wsu, 'wsu:Id', ids.timestamp);
  timestamp.ele(NS.wsu, 'wsu:Created').txt(utcSeconds(now));
  timestamp.ele(NS.wsu, 'wsu:Expires').txt(utcSeconds(new Date(now.getTime() + TIMESTAMP_LIFETIME_MS)));
  security
    .ele(NS.wsse, 'wsse:BinarySecurityToken')
    .att('EncodingType', BASE64_BINARY)
    .att('ValueType', X509_V3)
    .att(NS.wsu, 'wsu:Id', ids.token)
    .txt(Buffer.from(identity.certificateDer).toString('base64'));
  const body = envelope.ele(NS.soap, 'soapenv:Body').att('xmlns:wsu', NS.wsu).att(NS.wsu, 'wsu:Id', ids.body);
  writeBody(body);
  const unsigned = document.end({ headless: false });
  return signXml(unsigned, identity.privateKey, ids);
}

function signXml(xml: string, privateKey: KeyObject, ids: { timestamp: string; token: string; body: string }): string {
  const signer = new SignedXml({
    privateKey,
    signatureAlgorithm: signatureMethodFor(privateKey),
    canonicalizationAlgorithm: EXCLUSIVE_C14N,
    idMode: 'wssecurity',
    getKeyInfoContent: () =>
      `<wsse:SecurityTokenReference><wsse:Reference URI="#${ids.token}" ValueType="${X509_V3}"/></wsse:SecurityTokenReference>`,
  });
  registerEcdsa(signer);
  signer.addReference({ xpath: `//*[@*[local-name(.)='Id']='${ids.body}']`, transforms: [EXCLUSIVE_C14N], digestAlgorithm: SHA256_DIGEST });
  signer.addReference({ xpath: `//*[@*[local-name(.)='Id']='${ids.timestamp}']`, transforms: [EXCLUSIVE_C14N], digestAlgorithm: SHA256_DIGEST });
  signer.computeSignature(xml, {
    prefix: 'ds',
    location: { reference: "//*[local-name(.)='Security']", action: 'append' },
    existingPrefixes: { wsse: NS.wsse, wsu: NS.wsu },
  });
  return signer.getSignedXml();
}

/** SHA-256 of the DER, lowercase hex (the app's fingerprint). */
export function certificateFingerprint(der: Uint8Array): string {
  return createHash('sha256').update(der).digest('hex');
}
