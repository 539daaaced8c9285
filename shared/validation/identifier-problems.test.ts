import { describe, expect, it } from 'vitest';
import { identifierProblem } from './identifier-problems.ts';
import { isValidCcc, isValidIban, isValidNafControl, isValidNie, isValidNif } from './identifiers.ts';

describe('identifierProblem', () => {
  it('passes valid values, empty text and rules it does not know', () => {
    expect(identifierProblem('12345678Z', 'nienif')).toBeNull();
    expect(identifierProblem('X1234567L', 'nienif')).toBeNull();
    expect(identifierProblem('', 'nienif')).toBeNull();
    expect(identifierProblem('abc', 'email')).toBeNull();
    expect(identifierProblem('abc', 'nienif|email')).toBeNull();
  });

  it('DNI/NIF and NIE: the check letter, a missing letter or zero, a CIF, the shape', () => {
    expect(identifierProblem('12345678A', 'nienif')).toBe('La letra de control no coincide: debería ser Z (12345678Z)');
    expect(identifierProblem('12.345.678-a', 'nif')).toBe('La letra de control no coincide: debería ser Z (12345678Z)');
    expect(identifierProblem('12345678', 'nienif')).toBe('Falta la letra de control: debería ser 12345678Z');
    expect(identifierProblem('1234567L', 'nienif')).toBe('Falta el cero inicial del DNI: debería ser 01234567L');
    expect(identifierProblem('123456S', 'nif')).toBe('Faltan los ceros iniciales del DNI: debería ser 00123456S');
    expect(identifierProblem('1234567A', 'nienif')).toBe('El DNI tiene 7 cifras y debe tener 8 y la letra de control (12345678Z)');
    expect(identifierProblem('X1234567A', 'nienif')).toBe('La letra de control no coincide: debería ser L (X1234567L)');
    expect(identifierProblem('X1234567', 'nie')).toBe('Falta la letra de control: debería ser X1234567L');
    expect(identifierProblem('B12345674', 'nienif')).toBe('Es el NIF de una entidad (CIF), no el NIF o NIE de una persona');
    expect(identifierProblem('B12345675', 'nienif')).toBe('Parece el NIF de una entidad (CIF) y su carácter de control no coincide: debería ser 4');
    expect(identifierProblem('Q2826000A', 'nienif')).toBe('Parece el NIF de una entidad (CIF) y su carácter de control no coincide: debería ser H');
    expect(identifierProblem('G1234567A', 'nienif')).toBe('Parece el NIF de una entidad (CIF) y su carácter de control no coincide: debería ser 4 o D');
    expect(identifierProblem('ABC', 'nienif')).toBe(
      'Formato no válido (3 caracteres): un NIF tiene 8 cifras y una letra (12345678Z) y un NIE, X, Y o Z, 7 cifras y una letra (X1234567L)',
    );
    expect(identifierProblem('12345678Z', 'nie')).toBe('Formato no válido (9 caracteres): un NIE tiene X, Y o Z, 7 cifras y una letra (X1234567L)');
    expect(identifierProblem('1234#678Z', 'nif')).toBe('Tiene caracteres que no van en un documento: un NIF tiene 8 cifras y una letra (12345678Z)');
  });

  it('NAF: length, digits only, control digits', () => {
    expect(identifierProblem('281234567800', 'nafcontrol')).toBe('Los dígitos de control del NAF no coinciden: deberían ser 40 (281234567840)');
    expect(identifierProblem('28/12345678/00', 'nafcontrol')).toBe('Los dígitos de control del NAF no coinciden: deberían ser 40 (281234567840)');
    expect(identifierProblem('28123456780', 'nafcontrol')).toBe('El NAF debe tener 12 cifras y tiene 11');
    expect(identifierProblem('28123456780', 'naf')).toBe('El NAF debe tener 12 cifras y tiene 11');
    expect(identifierProblem('28A234567800', 'nafcontrol')).toBe('El NAF solo lleva cifras: 12 (2 de provincia, 8 de número y 2 de control)');
  });

  it('CCC: length, digits only, control digits', () => {
    expect(identifierProblem('28123456700', 'ccc')).toBe('Los dígitos de control del CCC no coinciden: deberían ser 42 (28123456742)');
    expect(identifierProblem('2812345670', 'ccc')).toBe('El CCC debe tener 11 cifras y tiene 10');
    expect(identifierProblem('28-1234567-AB', 'ccc')).toBe('El CCC solo lleva cifras: 11 (2 de provincia, 7 de número y 2 de control)');
  });

  it('IBAN: check digits, missing ES, other countries, length, letters', () => {
    expect(identifierProblem('ES00 2100 0418 4502 0005 1332', 'iban')).toBe('Los dígitos de control del IBAN no coinciden: deberían ser 91 (ES9121000418450200051332)');
    expect(identifierProblem('2100 0418 4502 0005 1332', 'iban')).toBe('Falta el principio del IBAN: debería ser ES9121000418450200051332');
    expect(identifierProblem('FR7630006000011234567890189', 'iban')).toBe('Solo se comprueban IBAN españoles, que empiezan por ES (este empieza por FR)');
    expect(identifierProblem('ES912100041845020005133', 'iban')).toBe('Un IBAN español tiene 24 caracteres (ES y 22 cifras) y este tiene 23');
    expect(identifierProblem('ES91210004184502000513AA', 'iban')).toBe('Un IBAN español es ES seguido de 22 cifras, sin otras letras');
  });

  it('every value it proposes passes its validator', () => {
    const proposed = (value: string, rule: string) => /\(?([A-Z0-9]{9,24})\)?$/.exec(identifierProblem(value, rule) ?? '')?.[1] ?? '';
    expect(isValidNif(proposed('87654321A', 'nif'))).toBe(true);
    expect(isValidNie(proposed('Y7654321A', 'nie'))).toBe(true);
    expect(isValidNafControl(proposed('081234567811', 'nafcontrol'))).toBe(true);
    expect(isValidCcc(proposed('08123456711', 'ccc'))).toBe(true);
    expect(isValidIban(proposed('ES1100491500051234567892', 'iban'))).toBe(true);
    expect(isValidIban(proposed('00491500051234567892', 'iban'))).toBe(true);
  });
});
