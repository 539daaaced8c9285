import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isNumeric, isValidDate, isValidEmail, isValidName, isValidSpanishPhone, isValidUrl, parseCalendarDate } from './formats.ts';

describe('isValidEmail', () => {
  it('accepts ordinary addresses regardless of case and rejects malformed ones', () => {
    expect(isValidEmail('ANA@GESTORIA.ES')).toBe(true);
    expect(isValidEmail(' ana.lopez+altas@gestoria.es ')).toBe(true);
    for (const bad of ['ana', 'ana@', '@gestoria.es', 'ana@@gestoria.es', 'ana lopez@gestoria.es']) {
      expect(isValidEmail(bad)).toBe(false);
    }
  });
});

describe('isValidSpanishPhone', () => {
  it('accepts 9 digits starting with 6, 7, 8 or 9 with an optional +34 or 0034', () => {
    for (const good of ['612345678', '912 34 56 78', '+34 612-345-678', '0034612345678', '(+34) 712345678', '812.345.678']) {
      expect(isValidSpanishPhone(good)).toBe(true);
    }
    for (const bad of ['412345678', '61234567', '6123456789', '+33612345678', '+34']) {
      expect(isValidSpanishPhone(bad)).toBe(false);
    }
  });

  it('refuses numbers starting with 5, which no Spanish line has, with or without prefix', () => {
    for (const bad of ['512345678', '+34 512 345 678', '0034512345678', '590000000']) {
      expect(isValidSpanishPhone(bad)).toBe(false);
    }
  });

  it('decides by the first digit after the prefix for any 9-digit number (property)', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 9 }), fc.stringMatching(/^\d{8}$/), fc.constantFrom('', '+34', '0034', '+34 '), (first, rest, prefix) =>
      isValidSpanishPhone(`${prefix}${first}${rest}`) === first >= 6));
  });
});

describe('isNumeric', () => {
  it('accepts integers and decimals with a dot or comma', () => {
    for (const good of ['0', '-3', '+4', '12.5', '12,5', 7, -1.5]) expect(isNumeric(good)).toBe(true);
    for (const bad of ['', '1e3', '12.', 'abc', '1.234,5', Number.NaN, Number.POSITIVE_INFINITY, null]) {
      expect(isNumeric(bad)).toBe(false);
    }
  });
});

describe('parseCalendarDate / isValidDate', () => {
  it('reads Spanish and ISO dates', () => {
    expect(parseCalendarDate('5/3/2025')).toEqual({ year: 2025, month: 3, day: 5 });
    expect(parseCalendarDate('05-03-2025')).toEqual({ year: 2025, month: 3, day: 5 });
    expect(parseCalendarDate('2025-03-05')).toEqual({ year: 2025, month: 3, day: 5 });
    expect(parseCalendarDate('2025-03-05T10:00:00.000Z')).toEqual({ year: 2025, month: 3, day: 5 });
  });

  it('rejects days that do not exist and other text', () => {
    for (const bad of ['31/04/2025', '29/02/2025', '2025-13-01', '2025-02-30', 'mañana', '2025-03-05T99:00']) {
      expect(parseCalendarDate(bad)).toBeNull();
    }
  });

  it('accepts valid Date objects only', () => {
    expect(isValidDate(new Date())).toBe(true);
    expect(isValidDate(new Date('x'))).toBe(false);
    expect(isValidDate(20250305)).toBe(false);
  });
});

describe('isValidUrl', () => {
  it('accepts web addresses with or without a scheme', () => {
    for (const good of ['https://www.gestoria.es', 'gestoria.es/form?x=1', 'http://localhost:8081/api', 'https://añil.es']) {
      expect(isValidUrl(good)).toBe(true);
    }
    for (const bad of ['gestoria', 'ftp://gestoria.es', 'https://', 'http://a b.es', 'www.gestoria.e5']) {
      expect(isValidUrl(bad)).toBe(false);
    }
  });
});

describe('isValidName', () => {
  it('allows letters, spaces and hyphens only', () => {
    expect(isValidName('Íñigo Pérez-Núñez')).toBe(true);
    expect(isValidName('O\'Brien')).toBe(false);
    expect(isValidName(' - ')).toBe(false);
    expect(isValidName('Ana2')).toBe(false);
  });
});
