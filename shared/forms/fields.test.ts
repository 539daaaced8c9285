import { describe, expect, it } from 'vitest';
import {
  fieldError, formFieldError, normalizeFieldDefinition, normalizeFieldValue, ruleForField, toIsoDate,
  type FormFieldDefinition,
} from './fields.ts';

describe('fieldError', () => {
  it('reports an empty required value', () => {
    expect(fieldError({ value: '  ', required: true })).toBe('Este campo es obligatorio');
    expect(fieldError({ value: [], required: true })).toBe('Este campo es obligatorio');
  });

  it('lets an empty optional value through, even with formatRequired', () => {
    expect(fieldError({ value: '', formatRequired: true, rule: 'email' })).toBeNull();
  });

  it('checks the format only when formatRequired and not empty', () => {
    expect(fieldError({ value: 'ana@', formatRequired: true, rule: 'email' })).toBe('Introduce una dirección de correo electrónico válida');
    expect(fieldError({ value: 'ana@', required: true, rule: 'email' })).toBeNull();
    expect(fieldError({ value: 'ana@gestoria.es', required: true, formatRequired: true, rule: 'email' })).toBeNull();
  });
});

describe('normalizeFieldDefinition', () => {
  const dropdown: FormFieldDefinition = { fieldType: 'dropdown', title: 'Sexo' };

  it('treats a dropdown without valid values as text', () => {
    expect(normalizeFieldDefinition(dropdown).fieldType).toBe('text');
    expect(normalizeFieldDefinition({ ...dropdown, validValues: [] }).fieldType).toBe('text');
  });

  it('keeps dropdowns with values, or with values from extra fields', () => {
    const withValues = { ...dropdown, validValues: [{ key: 'M', text: 'Mujer' }] };
    expect(normalizeFieldDefinition(withValues)).toBe(withValues);
    expect(normalizeFieldDefinition({ ...dropdown, validValuesFromExtraFields: { field: 'CCC' } }).fieldType).toBe('dropdown');
  });
});

describe('normalizeFieldValue', () => {
  it("turns the string 'true' into true for checkboxes", () => {
    expect(normalizeFieldValue('checkbox', 'true')).toBe(true);
    expect(normalizeFieldValue('checkbox', true)).toBe(true);
    expect(normalizeFieldValue('checkbox', 'false')).toBe(false);
    expect(normalizeFieldValue('checkbox', undefined)).toBe(false);
  });

  it('normalises dates to ISO and keeps other text for validation to flag', () => {
    expect(normalizeFieldValue('date', '31/05/1990')).toBe('1990-05-31');
    expect(normalizeFieldValue('date', 'ayer')).toBe('ayer');
    expect(normalizeFieldValue('text', ' x ')).toBe(' x ');
  });
});

describe('toIsoDate', () => {
  it('reads instants on the Madrid day', () => {
    expect(toIsoDate(new Date('1990-05-30T22:00:00Z'))).toBe('1990-05-31');
    expect(toIsoDate('1990-05-30T22:00:00.000Z')).toBe('1990-05-31');
    expect(toIsoDate('1990-05-31')).toBe('1990-05-31');
  });

  it('gives null for what is not a date', () => {
    expect(toIsoDate('31/02/2025')).toBeNull();
    expect(toIsoDate(12)).toBeNull();
    expect(toIsoDate(new Date('x'))).toBeNull();
  });
});

describe('formFieldError', () => {
  it('checks text by its validator subtype and dates as dates', () => {
    expect(ruleForField({ fieldType: 'text', title: 'NIF', validate: 'nienif' })).toBe('nienif');
    expect(formFieldError({ fieldType: 'text', title: 'NIF', validate: 'nienif' }, '123')).toBe('Introduce un NIF o NIE válido');
    expect(formFieldError({ fieldType: 'date', title: 'Fecha Alta' }, '31/02/2025')).toBe('Introduce una fecha válida');
    expect(formFieldError({ fieldType: 'date', title: 'Fecha Alta' }, '28/02/2025')).toBeNull();
  });

  it('checks dropdowns for presence only', () => {
    const field: FormFieldDefinition = { fieldType: 'dropdown', title: 'Sexo', required: true, validate: 'nif', validValues: [{ key: 'M', text: 'Mujer' }] };
    expect(formFieldError(field, '')).toBe('Este campo es obligatorio');
    expect(formFieldError(field, 'M')).toBeNull();
  });

  it('needs a required checkbox ticked', () => {
    const field: FormFieldDefinition = { fieldType: 'checkbox', title: 'Acepto', required: true };
    expect(formFieldError(field, 'false')).toBe('Este campo es obligatorio');
    expect(formFieldError(field, 'true')).toBeNull();
  });
});
