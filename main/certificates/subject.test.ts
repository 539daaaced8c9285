import { describe, expect, it } from 'vitest';
import { attr } from './fixtures/certificates.ts';
import { identifyHolder } from './subject.ts';
import type { NameAttribute } from './subject.ts';

function holder(subject: NameAttribute[], alternativeNames: NameAttribute[] = [], policies: string[] = []) {
  return identifyHolder({ subject, alternativeNames, policies });
}

describe('identifyHolder', () => {
  it('reads a person NIF from serialNumber with or without the ETSI prefix, and a NIE too', () => {
    expect(holder([attr('serialNumber', 'IDCES-78816596N'), attr('CN', 'RODRIGUEZ GARCIA ELENA')])).toEqual({ kind: 'person', nifVat: '78816596N', holderNif: null });
    expect(holder([attr('serialNumber', 'IDCES78816596N')]).nifVat).toBe('78816596N');
    expect(holder([attr('serialNumber', '78816596N')]).nifVat).toBe('78816596N');
    expect(holder([attr('serialNumber', 'IDCES-X1234567L')]).nifVat).toBe('X1234567L');
  });

  it('falls back to FNMT SAN attributes, then to the CN patterns', () => {
    expect(holder([attr('CN', 'ELENA')], [attr('1.3.6.1.4.1.5734.1.4', '78816596N')]).nifVat).toBe('78816596N');
    expect(holder([attr('CN', 'RODRIGUEZ GARCIA ELENA - 78816596N')]).nifVat).toBe('78816596N');
    expect(holder([attr('CN', 'NOMBRE ELENA RODRIGUEZ GARCIA - NIF 78816596N')]).nifVat).toBe('78816596N');
    expect(holder([attr('CN', 'elena rodríguez (78816596n)')]).nifVat).toBe('78816596N');
  });

  it('ignores candidates whose check letter is wrong and uses the next source', () => {
    expect(holder([attr('serialNumber', 'IDCES-78816596A'), attr('CN', 'X - 12345678Z')]).nifVat).toBe('12345678Z');
    expect(holder([attr('serialNumber', 'IDCES-78816596A'), attr('CN', 'X - 12345678A')])).toEqual({ kind: 'person', nifVat: null, holderNif: null });
  });

  it('trusts no serialNumber when the subject has two different ones', () => {
    const two = [attr('serialNumber', 'IDCES-78816596N'), attr('serialNumber', 'IDCES-12345678Z')];
    expect(holder([...two, attr('CN', 'SIN NIF')]).nifVat).toBeNull();
    expect(holder([...two, attr('CN', 'ALGUIEN - 00000000T')]).nifVat).toBe('00000000T');
    expect(holder([attr('serialNumber', 'IDCES-78816596N'), attr('serialNumber', 'IDCES-78816596N')]).nifVat).toBe('78816596N');
  });

  it('does not take a passport number for a NIF', () => {
    expect(holder([attr('serialNumber', 'PASES-AB123456'), attr('CN', 'ANA')]).nifVat).toBeNull();
  });

  it('reads a representative from organizationIdentifier plus a person, or from (R: in the CN alone', () => {
    expect(holder([attr('organizationIdentifier', 'VATES-B12345674'), attr('O', 'EJEMPLO SL'), attr('serialNumber', 'IDCES-12345678Z'), attr('CN', '12345678Z ANA PEREZ (R: B12345674)')]))
      .toEqual({ kind: 'representative', nifVat: 'B12345674', holderNif: '12345678Z' });
    expect(holder([attr('CN', '12345678Z ANA PEREZ (R: B12345674)')])).toEqual({ kind: 'representative', nifVat: 'B12345674', holderNif: '12345678Z' });
    expect(holder([attr('CN', 'ANA PEREZ')], [attr('1.3.6.1.4.1.5734.1.4', '12345678Z'), attr('1.3.6.1.4.1.5734.1.7', 'B12345674')]))
      .toEqual({ kind: 'representative', nifVat: 'B12345674', holderNif: '12345678Z' });
    // (R: with a CIF whose control is wrong: still a representative, but no NIF to sync.
    expect(holder([attr('CN', '12345678Z ANA PEREZ (R: B12345675)')])).toEqual({ kind: 'representative', nifVat: null, holderNif: '12345678Z' });
  });

  it('reads an entity (CIF and no person) and a sello', () => {
    expect(holder([attr('organizationIdentifier', 'VATES-B12345674'), attr('O', 'EJEMPLO SL'), attr('CN', 'EJEMPLO SL')])).toEqual({ kind: 'entity', nifVat: 'B12345674', holderNif: null });
    expect(holder([attr('O', 'EJEMPLO SL'), attr('CN', 'EJEMPLO SL - B12345674')])).toEqual({ kind: 'entity', nifVat: 'B12345674', holderNif: null });
    expect(holder([attr('organizationIdentifier', 'VATES-B12345674'), attr('OU', 'Sello electrónico'), attr('CN', 'EJEMPLO SL')])).toEqual({ kind: 'seal', nifVat: 'B12345674', holderNif: null });
    expect(holder([attr('organizationIdentifier', 'VATES-B12345674'), attr('CN', 'EJEMPLO SL')], [], ['0.4.0.194112.1.3'])).toMatchObject({ kind: 'seal' });
    // A natural-person policy does not make a seal, and 'SELLOS' is not the word SELLO.
    expect(holder([attr('organizationIdentifier', 'VATES-B12345674'), attr('CN', 'SELLOS Y CUÑOS SL')], [], ['0.4.0.194112.1.0'])).toMatchObject({ kind: 'entity' });
  });

  it('reads the DNIe layout: the CN has no NIF, the plain serialNumber has it', () => {
    expect(holder([attr('C', 'ES'), attr('serialNumber', '12345678Z'), attr('SN', 'GARCIA'), attr('GN', 'JUAN'), attr('CN', 'GARCIA LOPEZ, JUAN (AUTENTICACIÓN)')]))
      .toEqual({ kind: 'person', nifVat: '12345678Z', holderNif: null });
  });
});
