import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PASSWORD_MESSAGE } from '../api/fields.ts';
import { DEFAULT_MESSAGE, VALIDATOR_NAMES, ruleMessage, validate } from './validate.ts';

const invalid = (message: string) => ({ valid: false, message });

describe('validate: mandatory', () => {
  it.each([[''], ['   '], [[]], [{}], [null], [undefined], [new Date('nope')]])('fails on %j', (value) => {
    expect(validate(value, 'mandatory')).toEqual(invalid('Este campo es obligatorio'));
  });

  it.each([['a'], [0], [false], [['x']], [{ a: 1 }], [new Date()]])('passes on %j', (value) => {
    expect(validate(value, 'Mandatory').valid).toBe(true);
  });
});

describe('validate: table rows', () => {
  it.each([
    ['email', 'Ana.Lopez@Gestoria.ES', 'ana@', 'Introduce una dirección de correo electrónico válida'],
    ['password', 'Secreta1!', 'secreta1!', PASSWORD_MESSAGE],
    ['nif', '12345678Z', '1234567Z', 'Introduce un NIF válido'],
    ['nie', 'X1234567L', '12345678Z', 'Introduce un NIE válido'],
    ['nienif', 'X1234567L', 'AB123456', 'Introduce un NIF o NIE válido'],
    ['nienifpassport', 'AB123456', 'AB-1', 'Introduce un NIF, NIE o pasaporte válido'],
    ['passport', 'PAA123456', 'PAA-12345', 'Introduce un pasaporte válido'],
    ['naf', '281234567840', '2812345678', 'El NAF debe tener 12 dígitos numéricos'],
    ['nafcontrol', '28 12345678 40', '281234567841', 'Introduce un NAF válido: 12 dígitos y los dos últimos deben ser los de control'],
    ['iban', 'ES91 2100 0418 4502 0005 1332', 'ES00 2100 0418 4502 0005 1332', 'Introduce un IBAN válido'],
    ['ccc', '28255627528', '28255627500', 'Introduce un CCC válido'],
    ['number', '12,5', '12a', 'El valor introducido no es un número'],
    ['tel', '+34 612 345 678', '512 345 678', 'Introduce un número de teléfono válido'],
    ['date', '29/02/2024', '29/02/2025', 'Introduce una fecha válida'],
    ['url', 'https://www.gestoria.es/altas', 'no es una url', 'Introduce una URL con el formato correcto'],
    ['name', 'María-José de la Peña', 'R2D2', DEFAULT_MESSAGE],
  ])('%s accepts %j and rejects %j', (name, good, bad, message) => {
    expect(validate(good, name)).toEqual({ valid: true });
    expect(validate(bad, name)).toEqual(invalid(message));
  });

  it('says a NIF or NIE whose letter is wrong has the wrong letter (issue 44), whichever rule takes it', () => {
    expect(validate('12345678A', 'nif')).toEqual(invalid('La letra del NIF no es correcta'));
    expect(validate('12345678-a', 'nienif')).toEqual(invalid('La letra del NIF no es correcta'));
    expect(validate('X1234567A', 'nie')).toEqual(invalid('La letra del NIE no es correcta'));
    expect(validate('X1234567A', 'nienif')).toEqual(invalid('La letra del NIE no es correcta'));
    // A NIE where only a NIF goes is not a wrong letter: the general message stays.
    expect(validate('X1234567A', 'nif')).toEqual(invalid('Introduce un NIF válido'));
    expect(validate('12345678A', 'nie')).toEqual(invalid('Introduce un NIE válido'));
  });

  it('takes the coeficiente de parcialidad from 1 to 1000 ‰ (the jornada says which part: shared/altas/alta-rules.ts)', () => {
    for (const good of ['1', '500', '999', '1000']) expect(validate(good, 'parcialidad')).toEqual({ valid: true });
    for (const bad of ['0', '1001', '0,5', '']) expect(validate(bad, 'parcialidad')).toEqual(invalid('El coeficiente de parcialidad es un número de 1 a 1000 (‰)'));
  });

  it('covers every row of the spec table', () => {
    expect(VALIDATOR_NAMES).toEqual(expect.arrayContaining([
      'mandatory', 'email', 'password', 'nif', 'nie', 'nienif', 'nienifpassport', 'passport', 'naf', 'iban',
      'number', 'tel', 'date', 'url', 'name', 'default',
    ]));
  });

  it('lets format validators fail on an empty value (emptiness is for mandatory)', () => {
    expect(validate('', 'email').valid).toBe(false);
  });

  it('accepts numbers as values of text validators', () => {
    expect(validate(42, 'number').valid).toBe(true);
    expect(validate(612345678, 'tel').valid).toBe(true);
    expect(validate({}, 'number').valid).toBe(false);
  });
});

describe('validate: rules', () => {
  it('passes unknown names and the default name', () => {
    expect(validate('anything', 'zipcode')).toEqual({ valid: true });
    expect(validate('', 'default')).toEqual({ valid: true });
  });

  it('passes when any alternative passes and reports the first one otherwise', () => {
    expect(validate('AB123456', 'nif|passport').valid).toBe(true);
    expect(validate('??', 'nif|passport')).toEqual(invalid('Introduce un NIF válido'));
    expect(validate('??', ' nie | nif ')).toEqual(invalid('Introduce un NIE válido'));
  });

  it('checks a custom pattern with its message or the default one', () => {
    expect(validate('ABC', { pattern: '^[A-Z]+$' })).toEqual({ valid: true });
    expect(validate('abc', { pattern: /^[A-Z]+$/, message: 'Solo mayúsculas' })).toEqual(invalid('Solo mayúsculas'));
    expect(validate('abc', { pattern: /^\d+$/ })).toEqual(invalid(DEFAULT_MESSAGE));
  });

  it('gives the same answer twice for a global pattern', () => {
    const rule = { pattern: /a/g };
    expect(validate('a', rule).valid).toBe(true);
    expect(validate('a', rule).valid).toBe(true);
  });

  it("makes 'a|b' the OR of its parts (property)", () => {
    const names = fc.constantFrom(...VALIDATOR_NAMES, 'unknown');
    const values = fc.oneof(
      fc.string(), fc.constantFrom('', ' ', '12345678Z', 'X1234567L', 'AB123456', 'a@b.es', '612345678', '01/01/2020'),
      fc.integer(), fc.constant(null), fc.array(fc.integer()),
    );
    fc.assert(fc.property(values, names, names, (value, a, b) =>
      validate(value, `${a}|${b}`).valid === (validate(value, a).valid || validate(value, b).valid)));
  });
});

describe('ruleMessage', () => {
  it('names the message a rule fails with, before any value is typed', () => {
    expect(ruleMessage('tel')).toBe('Introduce un número de teléfono válido');
    expect(ruleMessage(' Email | nif')).toBe('Introduce una dirección de correo electrónico válida');
    expect(ruleMessage({ pattern: /^a$/, message: 'Solo a' })).toBe('Solo a');
    expect(ruleMessage({ pattern: /^a$/ })).toBe(DEFAULT_MESSAGE);
    expect(ruleMessage('unknown')).toBeUndefined();
    expect(ruleMessage('default')).toBeUndefined();
  });

  it('is the message validate gives whenever the rule fails, but for a NIF or NIE whose letter is wrong (property)', () => {
    const names = fc.constantFrom(...VALIDATOR_NAMES, 'unknown');
    const values = fc.oneof(fc.string(), fc.constantFrom('', '512345678', 'AB-12345', 'ana@', '12345678A', 'X1234567A'), fc.integer(), fc.constant(null));
    const letterMessages = ['La letra del NIF no es correcta', 'La letra del NIE no es correcta'];
    fc.assert(fc.property(values, names, names, (value, a, b) => {
      const result = validate(value, `${a}|${b}`);
      return result.valid || result.message === ruleMessage(`${a}|${b}`) || letterMessages.includes(result.message ?? '');
    }));
  });
});
