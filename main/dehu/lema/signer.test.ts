import { describe, expect, it } from 'vitest';
import { createPkcs12, createTestCertificate, testAuthority } from '../../certificates/testing/spanish-certificates.ts';
import { verifySignedEnvelope } from '../../../standins/dehu/verifier.ts';
import { readSigningIdentity, signedEnvelope } from './signer.ts';

const NOW = new Date('2026-11-25T10:00:00Z');
const trusted = [testAuthority('AC FNMT Usuarios').pem, testAuthority('AC Representación').pem];

async function envelopeSignedBy(options: Parameters<typeof createTestCertificate>[0], now = NOW): Promise<string> {
  const holder = createTestCertificate({ notBefore: new Date('2026-01-01T00:00:00Z'), notAfter: new Date('2028-01-01T00:00:00Z'), ...options });
  const identity = await readSigningIdentity(createPkcs12(holder, 'clave'), 'clave');
  return signedEnvelope((body) => {
    body.ele('http://administracion.gob.es/punto-unico-notificaciones/localiza', 'Localiza').ele('fechaDesde').txt('2026-11-20T00:00:00+01:00');
  }, identity, now);
}

describe('WS-Security signer and verifier', () => {
  it.each(['rsa', 'ec'] as const)('a %s signature over Body and Timestamp verifies, with its method and a token reference', async (keyType) => {
    const xml = await envelopeSignedBy({ keyType });
    expect(xml).toContain(keyType === 'rsa' ? 'xmldsig-more#rsa-sha256' : 'xmldsig-more#ecdsa-sha256');
    expect(xml).toContain('wsse:SecurityTokenReference');
    expect(xml).toContain('http://www.w3.org/2001/10/xml-exc-c14n#');
    const outcome = verifySignedEnvelope(xml, { caCertificates: trusted, now: NOW });
    expect(outcome).toMatchObject({ ok: true });
    if (outcome.ok) expect(outcome.certificate.subject).toContain('78816596N');
  });

  it('a tampered Body fails the check', async () => {
    const xml = (await envelopeSignedBy({ keyType: 'ec' })).replace('2026-11-20T00:00:00+01:00', '2026-10-20T00:00:00+01:00');
    expect(verifySignedEnvelope(xml, { caCertificates: trusted, now: NOW })).toMatchObject({ ok: false, faultCode: 'wsse:FailedCheck' });
  });

  it('a tampered Timestamp fails the check', async () => {
    const xml = (await envelopeSignedBy({ keyType: 'ec' })).replace('2026-11-25T10:05:00Z', '2026-11-25T11:05:00Z');
    expect(verifySignedEnvelope(xml, { caCertificates: trusted, now: NOW })).toMatchObject({ ok: false, faultCode: 'wsse:FailedCheck' });
  });

  it('an unsigned envelope is InvalidSecurity', async () => {
    const xml = (await envelopeSignedBy({ keyType: 'ec' })).replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '');
    expect(verifySignedEnvelope(xml, { caCertificates: trusted, now: NOW })).toMatchObject({ ok: false, faultCode: 'wsse:InvalidSecurity' });
  });

  it('an expired certificate is refused', async () => {
    const xml = await envelopeSignedBy({ keyType: 'ec', notBefore: new Date('2024-01-01T00:00:00Z'), notAfter: new Date('2026-11-01T00:00:00Z') });
    expect(verifySignedEnvelope(xml, { caCertificates: trusted, now: NOW })).toMatchObject({ ok: false, faultCode: 'wsse:InvalidSecurityToken', reason: 'El certificado ha caducado.' });
  });

  it('a certificate from an unknown CA is refused', async () => {
    const xml = await envelopeSignedBy({ keyType: 'ec', issuer: testAuthority('AC Desconocida') });
    expect(verifySignedEnvelope(xml, { caCertificates: trusted, now: NOW })).toMatchObject({ ok: false, faultCode: 'wsse:InvalidSecurityToken' });
  });

  it('an expired Timestamp is refused', async () => {
    const xml = await envelopeSignedBy({ keyType: 'ec' });
    expect(verifySignedEnvelope(xml, { caCertificates: trusted, now: new Date(NOW.getTime() + 6 * 60_000) })).toMatchObject({ ok: false, faultCode: 'wsu:MessageExpired' });
  });
});
