import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cifControl, isValidCif, isValidNie, isValidNif, nifLetter } from '#shared/validation/identifiers.ts';
import { attr } from './fixtures/certificates.ts';
import { identifyHolder, OID } from './subject.ts';
import type { NameAttribute } from './subject.ts';

const dni = fc.integer({ min: 0, max: 99_999_999 }).map((number) => String(number).padStart(8, '0') + nifLetter(number));
const nie = fc.tuple(fc.constantFrom('X', 'Y', 'Z'), fc.integer({ min: 0, max: 9_999_999 })).map(([prefix, number]) => {
  const digits = String(number).padStart(7, '0');
  return prefix + digits + nifLetter(Number(String('XYZ'.indexOf(prefix)) + digits));
});
const personId = fc.oneof(dni, nie);
const cif = fc.tuple(fc.constantFrom(...'ABCDEFGHJNPQRSUVW'), fc.integer({ min: 0, max: 9_999_999 })).map(([entity, number]) => {
  const digits = String(number).padStart(7, '0');
  const control = cifControl(digits);
  return entity + digits + ('NPQRSW'.includes(entity) ? 'JABCDEFGHI'.charAt(control) : String(control));
});
/** Names as the issuers write them: uppercase words, accents and Ñ included (never the word SELLO). */
const word = fc.stringMatching(/^[A-ZÁÉÍÓÚÜÑ]{2,12}$/).filter((text) => text !== 'SELLO');
const fullName = fc.array(word, { minLength: 1, maxLength: 4 }).map((words) => words.join(' '));

function holder(subject: NameAttribute[], alternativeNames: NameAttribute[] = []) {
  return identifyHolder({ subject, alternativeNames, policies: [] });
}

describe('identifyHolder over generated subjects', () => {
  it('gives back the person NIF/NIE of every persona física layout', () => {
    fc.assert(fc.property(personId, fullName, fullName, (nif, given, surnames) => {
      const layouts: NameAttribute[][] = [
        [attr('C', 'ES'), attr('serialNumber', `IDCES-${nif}`), attr('GN', given), attr('SN', surnames), attr('CN', `${surnames} ${given} - ${nif}`)],
        [attr('C', 'ES'), attr('CN', `${surnames} ${given} - ${nif}`)],
        [attr('C', 'ES'), attr('serialNumber', nif), attr('CN', `${surnames}, ${given} (AUTENTICACIÓN)`)],
      ];
      for (const subject of layouts) expect(holder(subject)).toEqual({ kind: 'person', nifVat: nif, holderNif: null });
      expect(holder([attr('CN', `${given} ${surnames}`)], [attr(OID.fnmtNif, nif)])).toEqual({ kind: 'person', nifVat: nif, holderNif: null });
    }));
  });

  it('gives back CIF and person of every representative layout, and the CIF of entities', () => {
    fc.assert(fc.property(personId, cif, fullName, fullName, (nif, entityCif, given, firm) => {
      const representative = { kind: 'representative', nifVat: entityCif, holderNif: nif };
      expect(holder([attr('C', 'ES'), attr('organizationIdentifier', `VATES-${entityCif}`), attr('O', firm), attr('serialNumber', `IDCES-${nif}`), attr('CN', `${nif} ${given} (R: ${entityCif})`)]))
        .toEqual(representative);
      expect(holder([attr('C', 'ES'), attr('CN', `${nif} ${given} (R: ${entityCif})`)])).toEqual(representative);
      expect(holder([attr('C', 'ES'), attr('organizationIdentifier', `VATES-${entityCif}`), attr('O', firm), attr('CN', firm)]))
        .toEqual({ kind: 'entity', nifVat: entityCif, holderNif: null });
      expect(holder([attr('C', 'ES'), attr('organizationIdentifier', `VATES-${entityCif}`), attr('O', firm), attr('CN', `SELLO DE ${firm}`)]))
        .toEqual({ kind: 'seal', nifVat: entityCif, holderNif: null });
    }));
  });

  it('never throws on garbage subjects and never yields an invalid NIF', () => {
    const oid = fc.constantFrom(OID.commonName, OID.serialNumber, OID.organizationIdentifier, OID.organization, OID.organizationalUnit, OID.fnmtNif, OID.fnmtCif, OID.fnmtEntityCif, '1.2.3.4');
    const looksLikeAnId = fc.tuple(fc.constantFrom('', 'IDCES-', 'VATES-', 'PASES-', '(R: ', ' - '), fc.stringMatching(/^[0-9A-Z]{7,10}$/)).map(([prefix, body]) => prefix + body);
    const value = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), looksLikeAnId, personId, cif);
    const attributes = fc.array(fc.record({ oid, value }), { maxLength: 8 });
    const policies = fc.array(fc.oneof(fc.constantFrom('0.4.0.194112.1.1', '0.4.0.194112.1.0'), fc.string()), { maxLength: 3 });
    fc.assert(fc.property(attributes, attributes, policies, (subject, alternativeNames, policyIds) => {
      const identity = identifyHolder({ subject, alternativeNames, policies: policyIds });
      const isPerson = (id: string) => isValidNif(id) || isValidNie(id);
      if (identity.nifVat !== null) expect(identity.kind === 'person' ? isPerson(identity.nifVat) : isValidCif(identity.nifVat)).toBe(true);
      if (identity.holderNif !== null) expect(identity.kind === 'representative' && isPerson(identity.holderNif)).toBe(true);
    }), { numRuns: 500 });
  });
});
