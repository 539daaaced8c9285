import { describe, expect, it } from 'vitest';
import {
  FORM_URL_FORMAT_MESSAGE, formConfigSlug, isArgumentsObject, isSearchable, joinPhone, splitPhone, toFormConfigUrl, validateFormConfig,
} from './inputs.ts';

describe('isSearchable', () => {
  it('is true for more than 5 items', () => {
    expect(isSearchable([1, 2, 3, 4, 5])).toBe(false);
    expect(isSearchable([1, 2, 3, 4, 5, 6])).toBe(true);
    expect(isSearchable(6)).toBe(true);
  });
});

describe('phone prefix', () => {
  it('defaults to +34', () => {
    expect(splitPhone('612345678')).toEqual({ prefix: '+34', number: '612345678' });
    expect(splitPhone('0034 612345678')).toEqual({ prefix: '+34', number: '612345678' });
    expect(splitPhone('+34612345678')).toEqual({ prefix: '+34', number: '612345678' });
  });

  it('keeps another prefix written with a space', () => {
    expect(splitPhone('+351 912345678')).toEqual({ prefix: '+351', number: '912345678' });
  });

  it('joins prefix and number, and gives nothing without a number', () => {
    expect(joinPhone({ prefix: '+34', number: '612345678' })).toBe('+34 612345678');
    expect(joinPhone({ prefix: '', number: '612345678' })).toBe('+34 612345678');
    expect(joinPhone({ prefix: '+34', number: ' ' })).toBe('');
  });
});

describe('form config URL', () => {
  it('stores the URL under /form/flows/ whether or not the user typed the prefix', () => {
    expect(toFormConfigUrl('altas-gestoria')).toBe('/form/flows/altas-gestoria');
    expect(toFormConfigUrl('/form/flows/altas-gestoria/')).toBe('/form/flows/altas-gestoria');
    expect(toFormConfigUrl(toFormConfigUrl('x'))).toBe('/form/flows/x');
    expect(formConfigSlug('/form/flows/altas')).toBe('altas');
  });

  it('requires a title and a URL, not a logo', () => {
    expect(validateFormConfig({ title: 'Altas', url: 'altas' })).toEqual({});
    expect(validateFormConfig({ title: ' ', url: '/form/flows/' })).toEqual({
      title: 'Este campo es obligatorio', url: 'Este campo es obligatorio',
    });
  });

  it("says the URL's rule for a URL the server would refuse (issue 44: it said only 'Revisa los datos enviados')", () => {
    for (const bad of ['Asesoría López', 'asesoria lopez', 'ALTAS', '-altas', 'altas-', 'a/b', 'x'.repeat(81)]) {
      expect(validateFormConfig({ title: 'Altas', url: bad }), bad).toEqual({ url: FORM_URL_FORMAT_MESSAGE });
    }
    expect(FORM_URL_FORMAT_MESSAGE).toContain('letras minúsculas');
    for (const good of ['asesoria-lopez', 'a', 'altas-2026', '/form/flows/altas', 'x'.repeat(80)]) expect(validateFormConfig({ title: 'Altas', url: good }), good).toEqual({});
  });
});

describe('isArgumentsObject', () => {
  it('accepts plain objects only', () => {
    expect(isArgumentsObject({ a: 1 })).toBe(true);
    expect(isArgumentsObject([])).toBe(false);
    expect(isArgumentsObject(null)).toBe(false);
    expect(isArgumentsObject('{}')).toBe(false);
  });
});
