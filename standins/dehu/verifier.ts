import { X509Certificate } from 'node:crypto';
import { DOMParser, type Element } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { ACCEPTED_SIGNATURE_METHODS, NS, registerEcdsa } from '../../main/dehu/lema/wsse.ts';

/**
 * The stand-in's WS-Security check, as DEHÚ would do it: a signed Body and Timestamp, a token that
 * chains to a trusted CA and is valid now, a fresh Timestamp. Exported for the client's tests too.
 * The fault codes are WS-Security 1.0's (wsse:InvalidSecurity, wsse:FailedCheck, …).
 */

export type VerifyOutcome =
  | { ok: true; certificate: X509Certificate; certificateDer: Buffer; body: Element }
  | { ok: false; faultCode: string; reason: string };

export interface VerifyOptions {
  /** PEM certificates of the CAs whose certificates may sign. */
  caCertificates: readonly string[];
  now: Date;
}

const refuse = (faultCode: string, reason: string): VerifyOutcome => ({ ok: false, faultCode, reason });

function childElements(parent: Element): Element[] {
  const found: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) if (node.nodeType === 1) found.push(node as Element);
  return found;
}
const child = (parent: Element | undefined, namespace: string, name: string): Element | undefined =>
  parent === undefined ? undefined : childElements(parent).find((element) => element.namespaceURI === namespace && element.localName === name);
const wsuId = (element: Element | undefined): string | null => element?.getAttributeNS(NS.wsu, 'Id') || null;

export function verifySignedEnvelope(xml: string, options: VerifyOptions): VerifyOutcome {
  let root: Element | null;
  try {
    root = new DOMParser({ onError: (level, message) => { if (level !== 'warning') throw new Error(message); } }).parseFromString(xml, 'text/xml').documentElement;
  } catch {
    return refuse('soapenv:Client', 'El mensaje no es XML válido.');
  }
  if (root === null || root.namespaceURI !== NS.soap || root.localName !== 'Envelope') return refuse('soapenv:Client', 'El mensaje no es un sobre SOAP 1.1.');
  const body = child(root, NS.soap, 'Body');
  if (body === undefined) return refuse('soapenv:Client', 'El sobre SOAP no tiene Body.');
  const security = child(child(root, NS.soap, 'Header'), NS.wsse, 'Security');
  if (security === undefined) return refuse('wsse:InvalidSecurity', 'Falta la cabecera wsse:Security.');
  const token = child(security, NS.wsse, 'BinarySecurityToken');
  const timestamp = child(security, NS.wsu, 'Timestamp');
  const signature = child(security, NS.ds, 'Signature');
  if (token === undefined || signature === undefined || timestamp === undefined) {
    return refuse('wsse:InvalidSecurity', 'La cabecera wsse:Security debe llevar Timestamp, BinarySecurityToken y Signature.');
  }

  // The Timestamp: not expired, not from the future.
  const expires = Date.parse(child(timestamp, NS.wsu, 'Expires')?.textContent ?? '');
  const created = Date.parse(child(timestamp, NS.wsu, 'Created')?.textContent ?? '');
  if (Number.isNaN(expires) || Number.isNaN(created)) return refuse('wsse:InvalidSecurity', 'El Timestamp no tiene fechas válidas.');
  if (expires <= options.now.getTime()) return refuse('wsu:MessageExpired', 'El mensaje ha caducado (Timestamp).');
  if (created > options.now.getTime() + 60_000) return refuse('wsse:InvalidSecurity', 'El Timestamp es posterior a la hora actual.');

  // The token: an X.509 certificate from a trusted CA, valid now.
  let certificate: X509Certificate;
  let certificateDer: Buffer;
  try {
    certificateDer = Buffer.from((token.textContent ?? '').replace(/\s+/g, ''), 'base64');
    certificate = new X509Certificate(certificateDer);
  } catch {
    return refuse('wsse:InvalidSecurityToken', 'El BinarySecurityToken no es un certificado X.509.');
  }
  const trusted = options.caCertificates.some((pem) => {
    const authority = new X509Certificate(pem);
    return certificate.checkIssued(authority) && certificate.verify(authority.publicKey);
  });
  if (!trusted) return refuse('wsse:InvalidSecurityToken', 'El certificado no ha sido emitido por una autoridad de certificación reconocida.');
  if (Date.parse(certificate.validTo) <= options.now.getTime()) return refuse('wsse:InvalidSecurityToken', 'El certificado ha caducado.');
  if (Date.parse(certificate.validFrom) > options.now.getTime()) return refuse('wsse:InvalidSecurityToken', 'El certificado todavía no es válido.');

  // The signature: references the Body and the Timestamp, KeyInfo points at the token, and verifies.
  const bodyId = wsuId(body);
  const timestampId = wsuId(timestamp);
  const tokenId = wsuId(token);
  const signedInfo = child(signature, NS.ds, 'SignedInfo');
  const method = child(signedInfo, NS.ds, 'SignatureMethod')?.getAttribute('Algorithm') ?? '';
  if (!ACCEPTED_SIGNATURE_METHODS.includes(method)) return refuse('wsse:UnsupportedAlgorithm', `Algoritmo de firma no admitido: ${method || 'ninguno'}.`);
  const referenced = new Set(
    childElements(signedInfo ?? signature)
      .filter((element) => element.namespaceURI === NS.ds && element.localName === 'Reference')
      .map((reference) => (reference.getAttribute('URI') ?? '').replace(/^#/, '')),
  );
  if (bodyId === null || timestampId === null || !referenced.has(bodyId) || !referenced.has(timestampId)) {
    return refuse('wsse:FailedCheck', 'La firma debe cubrir el Body y el Timestamp.');
  }
  const reference = child(child(child(signature, NS.ds, 'KeyInfo'), NS.wsse, 'SecurityTokenReference'), NS.wsse, 'Reference');
  if (tokenId === null || reference?.getAttribute('URI') !== `#${tokenId}`) {
    return refuse('wsse:SecurityTokenUnavailable', 'La firma no hace referencia al BinarySecurityToken.');
  }
  const verifier = new SignedXml({ publicCert: certificate.toString(), idMode: 'wssecurity', getCertFromKeyInfo: () => null });
  registerEcdsa(verifier);
  try {
    // xml-crypto types its node as the DOM's Node; a program compiled with the DOM library (the e2e) sees xmldom's as another type.
    verifier.loadSignature(signature as unknown as Parameters<SignedXml['loadSignature']>[0]);
    if (!verifier.checkSignature(xml)) return refuse('wsse:FailedCheck', 'La firma no es válida.');
  } catch {
    return refuse('wsse:FailedCheck', 'La firma no es válida.');
  }
  return { ok: true, certificate, certificateDer, body };
}
