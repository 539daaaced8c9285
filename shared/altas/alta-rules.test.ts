import { describe, expect, it } from 'vitest';
import {
  BORN_AFTER_ALTA_MESSAGE, FULL_TIME_COEFFICIENT_MESSAGE, PART_TIME_COEFFICIENT_MISSING_MESSAGE, PART_TIME_COEFFICIENT_RANGE_MESSAGE, START_BEFORE_ALTA_MESSAGE,
  ageOn, altaIdentity, altaRuleErrors, coefficientProblem, underAgeMessage,
} from './alta-rules.ts';

const alta = (values: Record<string, unknown>) => altaRuleErrors({ 'Fecha Alta': '2026-12-01', ...values });

describe('altaRuleErrors: the worker is 16 or more on the fecha de alta', () => {
  it('refuses a child born in 2015 (11 on the fecha de alta) with the age and the minimum', () => {
    expect(alta({ 'Fecha Nacimiento': '2015-03-10' })).toEqual({ 'Fecha Nacimiento': underAgeMessage(11) });
    expect(underAgeMessage(11)).toBe('Tendría 11 años en la fecha de alta: la edad mínima para trabajar es 16');
  });

  it('counts the 16th birthday on the very day of the alta, and not the day before', () => {
    expect(alta({ 'Fecha Nacimiento': '2010-12-01' })).toEqual({});
    expect(alta({ 'Fecha Nacimiento': '2010-12-02' })).toEqual({ 'Fecha Nacimiento': underAgeMessage(15) });
    expect(ageOn({ year: 2008, month: 2, day: 29 }, { year: 2024, month: 2, day: 28 })).toBe(15);
    expect(ageOn({ year: 2008, month: 2, day: 29 }, { year: 2024, month: 3, day: 1 })).toBe(16);
  });

  it('refuses a birth on or after the fecha de alta', () => {
    expect(alta({ 'Fecha Nacimiento': '2026-12-01' })).toEqual({ 'Fecha Nacimiento': BORN_AFTER_ALTA_MESSAGE });
    expect(alta({ 'Fecha Nacimiento': '2030-01-01' })).toEqual({ 'Fecha Nacimiento': BORN_AFTER_ALTA_MESSAGE });
  });

  it('reads Spanish dates too, and leaves empty or unreadable dates to the fields’ own checks', () => {
    expect(altaRuleErrors({ 'Fecha Alta': '01/12/2026', 'Fecha Nacimiento': '10/03/2015' })).toEqual({ 'Fecha Nacimiento': underAgeMessage(11) });
    expect(alta({ 'Fecha Nacimiento': null })).toEqual({});
    expect(alta({ 'Fecha Nacimiento': '31/02/2015' })).toEqual({});
    expect(altaRuleErrors({ 'Fecha Alta': '', 'Fecha Nacimiento': '2015-03-10' })).toEqual({});
  });
});

describe('altaRuleErrors: the contract does not start before the fecha de alta', () => {
  it('refuses a start the day before, takes the same day and later', () => {
    expect(alta({ 'Fecha Inicio': '2026-11-30' })).toEqual({ 'Fecha Inicio': START_BEFORE_ALTA_MESSAGE });
    expect(alta({ 'Fecha Inicio': '2026-12-01' })).toEqual({});
    expect(alta({ 'Fecha Inicio': '2026-12-15' })).toEqual({});
  });

  it('says every broken rule at once, each on its field', () => {
    expect(alta({ 'Fecha Nacimiento': '2015-03-10', 'Fecha Inicio': '2026-11-01' })).toEqual({
      'Fecha Nacimiento': underAgeMessage(11),
      'Fecha Inicio': START_BEFORE_ALTA_MESSAGE,
    });
  });
});

describe('coefficientProblem: the coeficiente de parcialidad against the jornada, as RED takes it', () => {
  it('full time: none, or 1000 ‰', () => {
    expect(coefficientProblem('completa', '')).toBeNull();
    expect(coefficientProblem('completa', null)).toBeNull();
    expect(coefficientProblem('completa', '1000')).toBeNull();
    expect(coefficientProblem('completa', '500')).toBe(FULL_TIME_COEFFICIENT_MESSAGE);
  });

  it('part time: required, 1 to 999 ‰', () => {
    expect(coefficientProblem('parcial', '')).toBe(PART_TIME_COEFFICIENT_MISSING_MESSAGE);
    expect(coefficientProblem('parcial', null)).toBe(PART_TIME_COEFFICIENT_MISSING_MESSAGE);
    expect(coefficientProblem('parcial', '1')).toBeNull();
    expect(coefficientProblem('parcial', '500')).toBeNull();
    expect(coefficientProblem('parcial', '999')).toBeNull();
    expect(coefficientProblem('parcial', '1000')).toBe(PART_TIME_COEFFICIENT_RANGE_MESSAGE);
    expect(coefficientProblem('parcial', '0')).toBe(PART_TIME_COEFFICIENT_RANGE_MESSAGE);
  });

  it('leaves text that is not a number to the field’s format check, and says nothing without a jornada', () => {
    expect(coefficientProblem('parcial', '0,5')).toBeNull();
    expect(coefficientProblem(null, '500')).toBeNull();
  });

  it('is one of the rules across fields, on the coefficient', () => {
    expect(altaRuleErrors({ Jornada: 'completa', 'Coeficiente Parcialidad': '500' })).toEqual({ 'Coeficiente Parcialidad': FULL_TIME_COEFFICIENT_MESSAGE });
    expect(altaRuleErrors({ Jornada: 'parcial', 'Coeficiente Parcialidad': null })).toEqual({ 'Coeficiente Parcialidad': PART_TIME_COEFFICIENT_MISSING_MESSAGE });
    expect(altaRuleErrors({ Jornada: 'parcial', 'Coeficiente Parcialidad': '500' })).toEqual({});
  });
});

describe('altaIdentity: what makes two altas the same one', () => {
  it('is the document, the fecha de alta and the CCC, however they were typed', () => {
    const one = altaIdentity({ NIF: '12345678Z', 'Fecha Alta': '2026-12-01', CCC: '28123456742' });
    expect(one).toBe('12345678Z|2026-12-01|28123456742');
    expect(altaIdentity({ NIF: ' 12345678-z ', 'Fecha Alta': '01/12/2026', CCC: '28 1234567 42' })).toBe(one);
    expect(altaIdentity({ NIF: '12345678Z', 'Fecha Alta': '2026-12-02', CCC: '28123456742' })).not.toBe(one);
  });

  it('is null while one of the three is missing', () => {
    expect(altaIdentity({ NIF: '12345678Z', 'Fecha Alta': '2026-12-01' })).toBeNull();
    expect(altaIdentity({ NIF: '', 'Fecha Alta': '2026-12-01', CCC: '28123456742' })).toBeNull();
    expect(altaIdentity({ NIF: '12345678Z', 'Fecha Alta': 'mañana', CCC: '28123456742' })).toBeNull();
  });
});
