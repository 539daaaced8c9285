import { describe, expect, it } from 'vitest';
import { matchesCertificateSearch, searchCertificates } from './search.ts';

const certificates = [
  { machine: 'PC Oficina', cn: 'GARCIA LOPEZ ANA - 12345678Z' },
  { machine: 'Portátil', cn: 'ASESORIA MARTINEZ SL - B12345674' },
  { machine: null, cn: 'PEREZ RUIZ JUAN - 87654321X' },
];
const fields = (item: (typeof certificates)[number]) => ({ deviceName: item.machine, certificateName: item.cn });

describe('certificate search', () => {
  it('ignores case and spaces', () => {
    expect(searchCertificates(certificates, 'garcialopez', fields).map((item) => item.cn)).toEqual(['GARCIA LOPEZ ANA - 12345678Z']);
    expect(searchCertificates(certificates, 'Asesoria Martinez SL', fields)).toHaveLength(1);
  });

  it('searches the device name and the certificate name together', () => {
    expect(searchCertificates(certificates, 'oficina', fields)).toHaveLength(1);
    expect(searchCertificates(certificates, 'portátil asesoria', fields)).toHaveLength(1);
  });

  it('matches everything for an empty query and nothing for a stranger', () => {
    expect(searchCertificates(certificates, '  ', fields)).toHaveLength(3);
    expect(searchCertificates(certificates, 'zzz', fields)).toEqual([]);
  });

  it('copes with a certificate without a device', () => {
    expect(matchesCertificateSearch({ deviceName: null, certificateName: 'PEREZ RUIZ' }, 'perez ruiz')).toBe(true);
  });
});
