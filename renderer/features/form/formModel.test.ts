import { describe, expect, it } from 'vitest';
import type { FormField } from '#shared/api/altas.ts';
import {
  COMPANY_KEY, PROFILE_KEY, documentRule, fieldErrorFor, fileProblem, formErrors, initialValues, optionsFor, placeIssues,
  submissionValues, visiblePages, withChange, workerName,
} from './formModel.ts';
import type { FormCompany } from './formModel.ts';

const text = (title: string, extra: Partial<FormField> = {}): FormField => ({ fieldType: 'text', title, fieldWriter: 'client', ...extra });
const fields: Record<string, FormField> = {
  'Tipo de documento': {
    fieldType: 'dropdown', title: 'Tipo de documento', fieldWriter: 'client', required: true,
    validValues: [{ key: '1', text: 'D.N.I./N.I.F.' }, { key: '6', text: 'N.I.E.' }, { key: '2', text: 'Pasaporte' }],
  },
  NIF: text('Documento', { required: true, validate: 'nienifpassport' }),
  pais: { fieldType: 'dropdown', title: 'País', fieldWriter: 'client', validValues: [{ key: 'ES', text: 'España' }, { key: 'PT', text: 'Portugal' }] },
  region: { fieldType: 'dropdown', title: 'Región', fieldWriter: 'client', dependentKey: 'pais', dependentOptions: { ES: [{ key: 'MD', text: 'Madrid' }], PT: [{ key: 'LX', text: 'Lisboa' }] } },
  ciudad: { fieldType: 'dropdown', title: 'Ciudad', fieldWriter: 'client', dependentKey: 'region', dependentOptions: { MD: [{ key: 'ALC', text: 'Alcalá' }] } },
  CCC: { fieldType: 'dropdown', title: 'CCC', fieldWriter: 'client', required: true, validValuesFromExtraFields: { field: 'CCC' } },
  alta: { fieldType: 'date', title: 'Fecha de alta', fieldWriter: 'client', required: true },
  ok: { fieldType: 'checkbox', title: 'Conforme', fieldWriter: 'client' },
  foto: { fieldType: 'file', title: 'Foto', fieldWriter: 'client' },
};
const company: FormCompany = { _id: 'c1', name: 'Talleres Norte SL', ccc: [{ label: 'Taller', key: '28123456789' }, { label: '', key: '28987654321' }], groups: [] };

describe('formModel', () => {
  it('keeps pages with known fields only and drops a page left empty', () => {
    expect(visiblePages([{ title: 'A', fields: ['NIF', 'nada'] }, { title: 'B', fields: ['nada'] }], fields)).toEqual([{ title: 'A', keys: ['NIF'] }]);
    expect(visiblePages([], { NIF: fields.NIF!, ok: fields.ok! })).toEqual([{ title: 'Datos del trabajador', keys: ['NIF', 'ok'] }]);
    expect(visiblePages([], {})).toEqual([]);
  });

  it('reads the document type by code or by its words', () => {
    expect(documentRule('1')).toBe('nif');
    expect(documentRule('6')).toBe('nie');
    expect(documentRule('2')).toBe('passport');
    expect(documentRule('DNI')).toBe('nif');
    expect(documentRule('x', [{ key: 'x', text: 'Pasaporte' }])).toBe('passport');
    expect(documentRule('')).toBeUndefined();
    expect(documentRule('otro')).toBeUndefined();
  });

  it('checks the document number against the chosen type, and by its own validator before one is chosen', () => {
    const values = { 'Tipo de documento': '1', NIF: 'X1234567L' };
    expect(fieldErrorFor('NIF', fields.NIF!, values, fields)).toBe('Introduce un NIF válido');
    expect(fieldErrorFor('NIF', fields.NIF!, { ...values, 'Tipo de documento': '6' }, fields)).toBeNull();
    expect(fieldErrorFor('NIF', fields.NIF!, { ...values, 'Tipo de documento': null }, fields)).toBeNull();
    expect(fieldErrorFor('NIF', fields.NIF!, { NIF: 'bad' }, fields)).toBe('Introduce un NIF, NIE o pasaporte válido');
  });

  it('offers the company’s CCC list, a dependent list for its parent’s value, or null while the parent is empty', () => {
    expect(optionsFor(fields.CCC!, {}, company)).toEqual([{ key: '28123456789', text: 'Taller · 28123456789' }, { key: '28987654321', text: '28987654321' }]);
    expect(optionsFor(fields.CCC!, {}, undefined)).toEqual([]);
    expect(optionsFor(fields.region!, {}, company)).toBeNull();
    expect(optionsFor(fields.region!, { pais: 'PT' }, company)).toEqual([{ key: 'LX', text: 'Lisboa' }]);
  });

  it('empties dependent choices down the chain when a parent changes, and keeps those still offered', () => {
    const filled = { pais: 'ES', region: 'MD', ciudad: 'ALC' };
    expect(withChange(fields, filled, 'pais', 'PT')).toEqual({ pais: 'PT', region: null, ciudad: null });
    expect(withChange(fields, filled, 'pais', 'ES')).toEqual(filled);
  });

  it('lists every error, the company and profile choices included', () => {
    const pages = visiblePages([{ title: 'A', fields: Object.keys(fields) }], fields);
    const errors = formErrors(pages, fields, { ...initialValues(pages, fields), alta: '31/02/2026' }, { companyId: null, groupKey: null });
    expect(errors).toEqual({
      [COMPANY_KEY]: 'Este campo es obligatorio', [PROFILE_KEY]: 'Este campo es obligatorio',
      'Tipo de documento': 'Este campo es obligatorio', NIF: 'Este campo es obligatorio', CCC: 'Este campo es obligatorio', alta: 'Introduce una fecha válida',
    });
  });

  it('sends one value per field: trimmed text, ISO dates, booleans, the uploaded file, null when empty', () => {
    const pages = visiblePages([{ title: 'A', fields: Object.keys(fields) }], fields);
    const file = { fileId: 'f1', name: 'dni.pdf', size: 10, type: 'application/pdf' };
    expect(submissionValues(pages, fields, { NIF: ' 12345678z ', alta: '01/12/2026', ok: true, foto: file, pais: '', CCC: '28123456789' })).toEqual({
      'Tipo de documento': null, NIF: '12345678z', pais: null, region: null, ciudad: null, CCC: '28123456789', alta: '2026-12-01', ok: true, foto: file,
    });
  });

  it('places the server’s issues on known fields and keeps the rest apart', () => {
    expect(placeIssues([
      { path: 'fieldsValues.NIF', message: 'NIF repetido' },
      { path: 'groupKey', message: 'Perfil no válido' },
      { path: '(body)', message: 'Algo más' },
    ], ['NIF'])).toEqual({ errors: { NIF: 'NIF repetido', [PROFILE_KEY]: 'Perfil no válido' }, unplaced: ['Algo más'] });
  });

  it('refuses files that are not images or PDF, and those over 10 MB', () => {
    expect(fileProblem({ name: 'dni.jpg', size: 2_000, type: 'image/jpeg' })).toBeNull();
    expect(fileProblem({ name: 'contrato.pdf', size: 10_000_000, type: '' })).toBeNull();
    expect(fileProblem({ name: 'datos.csv', size: 10, type: 'text/csv' })).toBe('Solo se admiten imágenes (PNG, JPG o WEBP) y archivos PDF.');
    // The server judges a file by its name's type first: a photo without one would be refused there.
    expect(fileProblem({ name: 'foto', size: 10, type: 'image/png' })).toBe('Solo se admiten imágenes (PNG, JPG o WEBP) y archivos PDF.');
    expect(fileProblem({ name: 'contrato.pdf', size: 10_000_001, type: 'application/pdf' })).toBe('El archivo ocupa 10 MB y el máximo permitido es 10 MB.');
    expect(fileProblem({ name: 'scan.pdf', size: 12_500_000, type: 'application/pdf' })).toBe('El archivo ocupa 12,5 MB y el máximo permitido es 10 MB.');
  });

  it('names the worker for the confirmation', () => {
    expect(workerName({ nombre: ' Ana ', PrimerApellido: 'Gil', SegundoApellido: null })).toBe('Ana Gil');
    expect(workerName({})).toBe('tu trabajador');
  });
});
