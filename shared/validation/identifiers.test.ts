import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  DOCUMENT_TYPE_LABELS, NIE_LETTER_MESSAGE, NIF_LETTER_MESSAGE, cifControl, documentLetterProblem, documentTypeCodeFor, inferDocumentIdType, isValidCcc, isValidCif, isValidIban, isValidNaf,
  isValidNafControl, isValidNie, isValidNif, isValidPassport, nifLetter,
} from './identifiers.ts';

const LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

describe('NIF', () => {
  it('accepts the research examples and rejects a wrong letter', () => {
    for (const nif of ['12345678Z', '00000000T', '99999999R', '78816596N']) expect(isValidNif(nif)).toBe(true);
    expect(isValidNif('12345678A')).toBe(false);
  });

  it('ignores case, spaces and hyphens but needs 8 digits', () => {
    expect(isValidNif(' 12345678-z ')).toBe(true);
    expect(isValidNif('1234567Z')).toBe(false);
    expect(isValidNif('123456789Z')).toBe(false);
  });

  it('is valid with the computed letter and invalid with any other (property)', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 99_999_999 }), fc.constantFrom(...LETTERS), (number, letter) => {
      const digits = String(number).padStart(8, '0');
      return isValidNif(digits + letter) === (letter === nifLetter(number));
    }));
  });
});

describe('documentLetterProblem', () => {
  it('says the letter is wrong for a NIF or NIE shape with the wrong letter, and nothing otherwise', () => {
    expect(documentLetterProblem('12345678A')).toBe(NIF_LETTER_MESSAGE);
    expect(documentLetterProblem(' 12345678-a ')).toBe(NIF_LETTER_MESSAGE);
    expect(documentLetterProblem('X1234567A')).toBe(NIE_LETTER_MESSAGE);
    for (const other of ['12345678Z', 'X1234567L', '1234567Z', 'AB123456', '']) expect(documentLetterProblem(other)).toBeNull();
  });
});

describe('NIE', () => {
  it('reads X, Y, Z as 0, 1, 2 before the mod-23 letter', () => {
    expect(isValidNie('X1234567L')).toBe(true);
    expect(isValidNie('Y1234567X')).toBe(true); // 11234567 % 23 = 10 -> X
    expect(isValidNie('Z1234567R')).toBe(true); // 21234567 % 23 = 1 -> R
    expect(isValidNie('X1234567A')).toBe(false);
    expect(isValidNie('12345678Z')).toBe(false);
  });
});

describe('CIF', () => {
  it('accepts entity NIFs with their control digit or letter', () => {
    expect(isValidCif('B12345674')).toBe(true); // research §6 example
    expect(isValidCif('Q2826000H')).toBe(true); // AEAT
    expect(isValidCif(' b-1234567-4 ')).toBe(true);
  });

  it('refuses a wrong control, a control of the wrong form for the entity type, and non-entity letters', () => {
    expect(isValidCif('B12345675')).toBe(false);
    expect(isValidCif('B1234567D')).toBe(false); // companies (A, B, E, H) end in the digit
    expect(isValidCif('Q28260008')).toBe(false); // public bodies (N, P, Q, R, S, W) end in the letter
    expect(isValidCif('C12345674')).toBe(true); // other entity types may use either
    expect(isValidCif('C1234567D')).toBe(true);
    expect(isValidCif('K1234567D')).toBe(false); // K, L, M are persons' NIFs
    expect(isValidCif('X1234567L')).toBe(false); // a NIE
    expect(isValidCif('12345678Z')).toBe(false); // a DNI
    expect(isValidCif('B1234567')).toBe(false);
  });

  it('is valid exactly with the computed control in the form its entity letter allows (property)', () => {
    const controls = [...'0123456789JABCDEFGHI'];
    fc.assert(fc.property(fc.constantFrom(...'ABCDEFGHJNPQRSUVW'), fc.integer({ min: 0, max: 9_999_999 }), fc.constantFrom(...controls), (entity, number, written) => {
      const digits = String(number).padStart(7, '0');
      const control = cifControl(digits);
      const expected = 'NPQRSW'.includes(entity) ? written === 'JABCDEFGHI'.charAt(control)
        : 'ABEH'.includes(entity) ? written === String(control)
          : written === String(control) || written === 'JABCDEFGHI'.charAt(control);
      return isValidCif(entity + digits + written) === expected;
    }));
  });
});

describe('passport', () => {
  it('takes 5 to 15 letters or digits', () => {
    expect(isValidPassport('AB123456')).toBe(true);
    expect(isValidPassport('A1234')).toBe(true);
    expect(isValidPassport('A123')).toBe(false);
    expect(isValidPassport('A'.repeat(16))).toBe(false);
    expect(isValidPassport('AB12_456')).toBe(false);
    expect(isValidPassport(' ab123456 ')).toBe(true);
  });

  it('refuses separators: letters and digits only', () => {
    for (const bad of ['AB-123456', 'AB.123456', 'AB/123456', 'AB 123456', '-----A1234']) {
      expect(isValidPassport(bad)).toBe(false);
    }
  });

  it('accepts exactly the 5-15 letter-or-digit strings (property)', () => {
    const chars = fc.constantFrom(...'ABCXYZ0189-./ _'.split(''));
    fc.assert(fc.property(fc.array(chars, { maxLength: 18 }).map((list) => list.join('')), (text) =>
      isValidPassport(text) === /^[A-Z0-9]{5,15}$/.test(text.trim())));
  });
});

describe('NAF', () => {
  it('needs exactly 12 digits for the loose check', () => {
    expect(isValidNaf('281234567899')).toBe(true);
    expect(isValidNaf('28 12345678 99')).toBe(true);
    expect(isValidNaf('28123456789')).toBe(false);
    expect(isValidNaf('28123456789A')).toBe(false);
  });

  it('checks control digits in the strict check, both numbering ranges', () => {
    expect(isValidNafControl('281234567840')).toBe(true);
    expect(isValidNafControl('28/01234567/42')).toBe(true);
    expect(isValidNafControl('281234567841')).toBe(false);
    expect(isValidNafControl('28012345674')).toBe(false);
  });
});

describe('CCC', () => {
  it('takes 11 digits whose last two are the first nine mod 97', () => {
    expect(isValidCcc('28255627528')).toBe(true);
    expect(isValidCcc('28 2556275 28')).toBe(true);
    expect(isValidCcc('28255627529')).toBe(false);
    expect(isValidCcc('2825562752')).toBe(false);
  });
});

describe('IBAN', () => {
  it('accepts a Spanish IBAN with the right check digits, spaces ignored', () => {
    expect(isValidIban('ES9121000418450200051332')).toBe(true);
    expect(isValidIban('ES91 2100 0418 4502 0005 1332')).toBe(true);
    expect(isValidIban('es91 2100 0418 4502 0005 1332')).toBe(true);
  });

  it('rejects wrong check digits, another country or a wrong length', () => {
    expect(isValidIban('ES9221000418450200051332')).toBe(false);
    expect(isValidIban('ES912100041845020005133')).toBe(false);
    expect(isValidIban('DE89370400440532013000')).toBe(false);
  });
});

describe('inferDocumentIdType', () => {
  it('reads the type off the shape of the NIF text', () => {
    expect(inferDocumentIdType('12345678Z')).toBe('DNI');
    expect(inferDocumentIdType('x1234567l')).toBe('NIE');
    expect(inferDocumentIdType('AB123456')).toBe('PASSPORT');
    expect(inferDocumentIdType('B12345674')).toBeNull();
    expect(inferDocumentIdType('')).toBeNull();
  });

  it('maps to the registration document type codes', () => {
    expect(documentTypeCodeFor('12345678Z')).toBe(1);
    expect(documentTypeCodeFor('AB123456')).toBe(2);
    expect(documentTypeCodeFor('X1234567L')).toBe(6);
    expect(documentTypeCodeFor('???')).toBeNull();
    expect(DOCUMENT_TYPE_LABELS).toEqual({ 1: 'D.N.I./N.I.F.', 2: 'Pasaporte', 6: 'N.I.E.' });
  });
});
