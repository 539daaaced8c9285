import { describe, expect, it } from 'vitest';
import { formBodySchema } from '#shared/api/onlineforms.ts';
import {
  addPlaceholder, bodyOf, draftChanged, draftErrors, draftOf, missingPlaceholders, moveField, newFormBody, placeBodyIssues, recipientsOf, removeField, updateField,
} from './formEditorModel.ts';
import type { FormDraft } from './formEditorModel.ts';

const template = { id: 't1', name: 'Solicitud de datos de alta', placeholders: ['Nombre', 'NIF trabajador', 'Fecha de alta', 'IBAN'], takesSignature: true };

const draft = (): FormDraft => draftOf({ ...newFormBody(template), templateId: 't1' });

describe('the form editor model', () => {
  it("makes a new form from the template's placeholders, typed by their names, all required, signing when the template signs", () => {
    const body = newFormBody(template);
    expect(body).toMatchObject({ templateId: 't1', title: 'Solicitud de datos de alta', requireSignature: true });
    expect(body.fields.map((field) => [field.key, field.type, field.required])).toEqual([
      ['Nombre', 'text', true], ['NIF trabajador', 'nif', true], ['Fecha de alta', 'date', true], ['IBAN', 'iban', true],
    ]);
    expect(formBodySchema.safeParse(body).success).toBe(true);
  });

  it('moves a field up and down, and nothing past either end', () => {
    const { fields } = draft();
    expect(moveField(fields, 2, -1).map((field) => field.key)).toEqual(['Nombre', 'Fecha de alta', 'NIF trabajador', 'IBAN']);
    expect(moveField(fields, 0, 1).map((field) => field.key)).toEqual(['NIF trabajador', 'Nombre', 'Fecha de alta', 'IBAN']);
    expect(moveField(fields, 0, -1).map((field) => field.key)).toEqual(fields.map((field) => field.key));
    expect(moveField(fields, 3, 1).map((field) => field.key)).toEqual(fields.map((field) => field.key));
  });

  it('offers back a removed placeholder and adds it at the end', () => {
    const removed = removeField(draft().fields, 1);
    expect(missingPlaceholders(template.placeholders, removed)).toEqual(['NIF trabajador']);
    const again = addPlaceholder(removed, 'NIF trabajador');
    expect(again.map((field) => field.key)).toEqual(['Nombre', 'Fecha de alta', 'IBAN', 'NIF trabajador']);
    expect(again.at(-1)?.type).toBe('nif');
    expect(missingPlaceholders(template.placeholders, again)).toEqual([]);
  });

  it('marks an empty title, an empty question, a select without options and a form without fields', () => {
    let edited = { ...draft(), title: '  ' };
    edited = { ...edited, fields: updateField(edited.fields, 0, { label: ' ' }) };
    edited = { ...edited, fields: updateField(edited.fields, 3, { type: 'select', optionsText: '\n  \n' }) };
    expect(draftErrors(edited)).toEqual({
      title: 'Escribe el título del formulario', 'fields.0.label': 'Escribe la pregunta del campo', 'fields.3.options': 'Escribe al menos una opción',
    });
    expect(draftErrors({ ...draft(), fields: [] })).toEqual({ fields: 'El formulario necesita al menos un campo' });
    expect(draftErrors(draft())).toEqual({});
  });

  it('sends help only when written and options only for a select, trimmed and without repeats', () => {
    let edited = draft();
    edited = { ...edited, fields: updateField(edited.fields, 0, { label: '  Nombre completo ', help: '   ' }) };
    edited = { ...edited, fields: updateField(edited.fields, 1, { help: ' Con la letra ', optionsText: 'ignored' }) };
    edited = { ...edited, fields: updateField(edited.fields, 3, { type: 'select', optionsText: 'Completa\n Parcial \nCompleta\n' }) };
    const body = bodyOf(edited);
    expect(body.fields[0]).toEqual({ key: 'Nombre', label: 'Nombre completo', type: 'text', required: true });
    expect(body.fields[1]).toEqual({ key: 'NIF trabajador', label: 'NIF trabajador', type: 'nif', required: true, help: 'Con la letra' });
    expect(body.fields[3]).toEqual({ key: 'IBAN', label: 'IBAN', type: 'select', required: true, options: ['Completa', 'Parcial'] });
    expect(formBodySchema.safeParse(body).success).toBe(true);
  });

  it('knows when the editor differs from what is saved', () => {
    const saved = draft();
    expect(draftChanged(saved, saved)).toBe(false);
    expect(draftChanged({ ...saved, title: `${saved.title} ` }, saved)).toBe(false);
    expect(draftChanged({ ...saved, requireSignature: false }, saved)).toBe(true);
    expect(draftChanged({ ...saved, fields: moveField(saved.fields, 0, 1) }, saved)).toBe(true);
  });

  it("places the server's issues on the field parts they name", () => {
    expect(placeBodyIssues([
      { path: 'title', message: 'Escribe el título del formulario' },
      { path: 'fields.2.options.0', message: 'Opción vacía' },
      { path: 'fields.1.label', message: 'Escribe la pregunta del campo' },
    ])).toEqual({ title: 'Escribe el título del formulario', 'fields.2.options': 'Opción vacía', 'fields.1.label': 'Escribe la pregunta del campo' });
  });

  it('reads recipients separated by commas, semicolons, spaces or lines, once each', () => {
    expect(recipientsOf('ana@a.es, luis@b.es;\nana@a.es  marta@c.es')).toEqual(['ana@a.es', 'luis@b.es', 'marta@c.es']);
    expect(recipientsOf('  ')).toEqual([]);
  });
});
