import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { localCertificateSchema } from '#shared/certificates/certificate.ts';
import { attr, buildCertificate } from './fixtures/certificates.ts';
import { allowsClientAuthentication, CertificateReadError, describeCertificate, readCertificateUsage } from './x509.ts';

const FNMT_PERSON = [
  attr('C', 'ES'), attr('serialNumber', 'IDCES-78816596N'), attr('GN', 'ELENA'), attr('SN', 'RODRIGUEZ GARCIA'),
  attr('CN', 'RODRIGUEZ GARCIA ELENA - 78816596N'),
];

describe('describeCertificate', () => {
  it('reads an FNMT persona física certificate the way node:crypto and the schema agree with', () => {
    const der = buildCertificate({
      subject: FNMT_PERSON,
      alternativeNames: [attr('1.3.6.1.4.1.5734.1.1', 'ELENA'), attr('1.3.6.1.4.1.5734.1.4', '78816596N')],
      serialNumber: '0d5a33c1f2',
      notBefore: new Date('2024-05-02T10:11:12Z'),
      notAfter: new Date('2028-05-02T10:11:12Z'),
    });
    const certificate = describeCertificate(der, 'windows', 'A1B2C3');
    const reference = new X509Certificate(der);

    expect(certificate).toEqual({
      fingerprint: reference.fingerprint256.replaceAll(':', '').toLowerCase(),
      serialNumber: reference.serialNumber.toUpperCase(),
      subjectString: 'CN=RODRIGUEZ GARCIA ELENA - 78816596N, SN=RODRIGUEZ GARCIA, GN=ELENA, serialNumber=IDCES-78816596N, C=ES',
      commonName: 'RODRIGUEZ GARCIA ELENA - 78816596N',
      issuer: 'AC FNMT Usuarios',
      notBefore: '2024-05-02T10:11:12.000Z',
      notAfter: '2028-05-02T10:11:12.000Z',
      nifVat: '78816596N',
      kind: 'person',
      store: 'windows',
      location: 'A1B2C3',
      holderNif: null,
    });
    expect(localCertificateSchema.safeParse(certificate).success).toBe(true);
  });

  it('reads a representative: the company CIF as NIF and the person apart', () => {
    const der = buildCertificate({
      subject: [
        attr('C', 'ES'), attr('organizationIdentifier', 'VATES-B12345674'), attr('O', 'EJEMPLO, SL'),
        attr('serialNumber', 'IDCES-12345678Z'), attr('CN', '12345678Z NOMBRE APELLIDO (R: B12345674)'),
      ],
      issuer: [attr('C', 'ES'), attr('O', 'FNMT-RCM'), attr('CN', 'AC Representación')],
    });
    const certificate = describeCertificate(der, 'nss', 'Representante');
    expect(certificate).toMatchObject({ kind: 'representative', nifVat: 'B12345674', holderNif: '12345678Z', issuer: 'AC Representación' });
    expect(certificate.subjectString).toBe('CN=12345678Z NOMBRE APELLIDO (R: B12345674), serialNumber=IDCES-12345678Z, O=EJEMPLO\\, SL, organizationIdentifier=VATES-B12345674, C=ES');
  });

  it('reads an entity certificate (organisation and CIF, no person)', () => {
    const der = buildCertificate({ subject: [attr('C', 'ES'), attr('organizationIdentifier', 'VATES-B12345674'), attr('O', 'EJEMPLO SL'), attr('CN', 'EJEMPLO SL')] });
    expect(describeCertificate(der, 'pkcs12', 'ejemplo.p12')).toMatchObject({ kind: 'entity', nifVat: 'B12345674', holderNif: null, commonName: 'EJEMPLO SL' });
  });

  it('reads a sello by its CN and by a legal-person qualified policy', () => {
    const named = buildCertificate({ subject: [attr('C', 'ES'), attr('organizationIdentifier', 'VATES-Q2826000H'), attr('O', 'AGENCIA ESTATAL DE ADMINISTRACION TRIBUTARIA'), attr('CN', 'SELLO ELECTRÓNICO DE LA AEAT')] });
    expect(describeCertificate(named, 'macos', 'AEAT')).toMatchObject({ kind: 'seal', nifVat: 'Q2826000H', holderNif: null });

    const byPolicy = buildCertificate({ subject: [attr('C', 'ES'), attr('organizationIdentifier', 'VATES-B12345674'), attr('O', 'EJEMPLO SL'), attr('CN', 'EJEMPLO SL')], policies: ['0.4.0.194112.1.1'] });
    expect(describeCertificate(byPolicy, 'macos', 'EJEMPLO')).toMatchObject({ kind: 'seal', nifVat: 'B12345674' });
  });

  it('reads a DNIe authentication certificate: the NIF comes from the plain serialNumber', () => {
    const der = buildCertificate({
      subject: [attr('C', 'ES'), attr('serialNumber', '12345678Z'), attr('SN', 'GARCIA'), attr('GN', 'JUAN'), attr('CN', 'GARCIA LOPEZ, JUAN (AUTENTICACIÓN)')],
      issuer: [attr('C', 'ES'), attr('O', 'DIRECCION GENERAL DE LA POLICIA'), attr('OU', 'DNIE'), attr('CN', 'AC DNIE 004')],
    });
    const certificate = describeCertificate(der, 'nss', 'DNIe');
    expect(certificate).toMatchObject({ kind: 'person', nifVat: '12345678Z', commonName: 'GARCIA LOPEZ, JUAN (AUTENTICACIÓN)', issuer: 'AC DNIE 004' });
    expect(certificate.subjectString.startsWith('CN=GARCIA LOPEZ\\, JUAN (AUTENTICACIÓN), ')).toBe(true);
  });

  it('keeps a certificate with no NIF anywhere, as a person certificate without NIF', () => {
    const der = buildCertificate({ subject: [attr('C', 'ES'), attr('CN', 'Prueba sin identificador')], issuer: [attr('O', 'Emisor Sin CN')] });
    expect(describeCertificate(der, 'pkcs12', 'prueba.pfx')).toMatchObject({ kind: 'person', nifVat: null, holderNif: null, issuer: 'Emisor Sin CN' });
  });

  it('writes a multi-valued RDN with + and still reads its NIF (empleado público layout)', () => {
    const der = buildCertificate({
      subject: [attr('C', 'ES'), attr('O', 'MINISTERIO'), [attr('GN', 'ANA'), attr('serialNumber', 'IDCES-00000000T'), attr('SN', 'PEREZ RUIZ - 00000000T'), attr('CN', 'ANA PEREZ RUIZ - 00000000T')]],
    });
    const certificate = describeCertificate(der, 'nss', 'empleado');
    expect(certificate.nifVat).toBe('00000000T');
    expect(certificate.subjectString).toMatch(/^(?:\w+=[^,]+\+){3}\w+=[^,]+, O=MINISTERIO, C=ES$/);
  });

  it('reads an EC (P-256) certificate, which node-forge cannot', () => {
    const der = buildCertificate({ key: 'ec', subject: FNMT_PERSON });
    const certificate = describeCertificate(der, 'nss', 'ec');
    expect(certificate).toMatchObject({ kind: 'person', nifVat: '78816596N' });
    expect(certificate.fingerprint).toBe(new X509Certificate(der).fingerprint256.replaceAll(':', '').toLowerCase());
  });

  it('refuses bytes that are not exactly one certificate with a Spanish CertificateReadError', () => {
    const der = buildCertificate({ subject: FNMT_PERSON });
    const pem = new TextEncoder().encode(new X509Certificate(der).toString());
    for (const bytes of [new Uint8Array(), new TextEncoder().encode('hola'), pem, der.slice(0, 200), new Uint8Array([...der, 0]), new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x01])]) {
      expect(() => describeCertificate(bytes, 'nss', 'x')).toThrow(CertificateReadError);
      expect(() => describeCertificate(bytes, 'nss', 'x')).toThrow(/^El certificado no se puede leer: /);
    }
  });

  it('never throws anything but CertificateReadError, whatever the bytes (property)', () => {
    const der = buildCertificate({ subject: FNMT_PERSON });
    const mutated = fc.tuple(fc.integer({ min: 0, max: der.length - 1 }), fc.integer({ min: 0, max: 255 })).map(([at, byte]) => {
      const copy = der.slice();
      copy[at] = byte;
      return copy;
    });
    fc.assert(fc.property(fc.oneof(fc.uint8Array({ maxLength: 300 }), mutated), (bytes) => {
      try {
        localCertificateSchema.parse(describeCertificate(bytes, 'nss', 'x'));
        return true;
      } catch (error) {
        return error instanceof CertificateReadError;
      }
    }), { numRuns: 300 });
  });
});

describe('readCertificateUsage', () => {
  it('tells CA certificates and client-authentication usage apart', () => {
    const subject = [attr('CN', 'X')];
    expect(readCertificateUsage(buildCertificate({ subject, isCertificateAuthority: true }))).toEqual({ isCertificateAuthority: true, extendedKeyUsages: null });
    expect(allowsClientAuthentication(readCertificateUsage(buildCertificate({ subject })))).toBe(true);
    expect(allowsClientAuthentication(readCertificateUsage(buildCertificate({ subject, extendedKeyUsages: ['1.3.6.1.5.5.7.3.4', '1.3.6.1.5.5.7.3.2'] })))).toBe(true);
    expect(allowsClientAuthentication(readCertificateUsage(buildCertificate({ subject, extendedKeyUsages: ['1.3.6.1.5.5.7.3.1'] })))).toBe(false);
    expect(allowsClientAuthentication(readCertificateUsage(buildCertificate({ subject, extendedKeyUsages: ['2.5.29.37.0'] })))).toBe(true);
  });
});
