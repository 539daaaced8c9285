import { describe, expect, it } from 'vitest';
import { flowDefinitionSchema, type MappedColumn } from '#shared/flows/definition.ts';
import { headerKey } from '#shared/flows/columns.ts';
import validarDefinition from '../validar-identificadores/flow.json' with { type: 'json' };
import altasDefinition from '../comprobar-altas-red/flow.json' with { type: 'json' };
import { detectColumns } from './columns.ts';

/**
 * Header spellings found in asesorías' real exports (A3, Sage/Nominaplus, Excel templates), each with
 * the column a flow must give it, or null for none. Each header is detected alone, so what is checked
 * is that header's own reading, not which of several wins.
 */

const mappedColumns = (definition: unknown): MappedColumn[] =>
  flowDefinitionSchema.parse(definition).sectionSetup.builder.flatMap((section) => section.builder).flatMap((input) => input.config?.columns ?? []);

const validar = mappedColumns(validarDefinition);
const altas = mappedColumns(altasDefinition);

const columnOf = (header: string, columns: readonly MappedColumn[]) => detectColumns([header], columns)[0]?.column.key ?? null;

const VALIDAR_IDENTIFICADORES: [string, string | null][] = [
  ['DNI', 'nif'], ['D.N.I.', 'nif'], ['D.N.I', 'nif'], ['d.n.i.', 'nif'], ['D. N. I.', 'nif'],
  ['D.N.I. / N.I.E.', 'nif'], ['DNI/NIE', 'nif'], ['DNI-NIE', 'nif'], ['NIF', 'nif'], ['N.I.F.', 'nif'],
  ['NIF/NIE', 'nif'], ['NIE', 'nif'], ['N.I.E.', 'nif'], ['NIF trabajador', 'nif'], ['NIF Empresa', 'nif'],
  ['CIF', 'nif'], ['Documento', 'nif'], ['Nº documento', 'nif'], ['N.º Documento', 'nif'], ['Núm. documento', 'nif'],
  ['Número de documento', 'nif'], ['Tipo de documento', null], ['Tipo documento', null], ['TIPO DOC.', null],
  ['Nº afiliación', 'naf'], ['N.º Afiliación S.S.', 'naf'], ['Nº Afiliación', 'naf'], ['Num. afiliación', 'naf'],
  ['Nro. afiliación', 'naf'], ['Número de afiliación', 'naf'], ['Num. Seg. Social', 'naf'], ['Nº Seguridad Social', 'naf'],
  ['Nº de la Seguridad Social', 'naf'], ['Nº S.Social', 'naf'], ['N.º S. Social', 'naf'], ['NAF', 'naf'], ['N.A.F.', 'naf'], ['NUSS', 'naf'], ['Nº SS', 'naf'], ['Nº S.S.', 'naf'],
  ['Código cuenta cotización', 'ccc'], ['CÓDIGO CUENTA COTIZACIÓN', 'ccc'], ['Código de cuenta de cotización', 'ccc'],
  ['C.C.C.', 'ccc'], ['CCC', 'ccc'], ['C.C.C', 'ccc'], ['Cuenta de cotización', 'ccc'], ['Cta. cotización', 'ccc'],
  ['CCC empresa', 'ccc'],
  ['Cuenta', 'iban'], ['IBAN', 'iban'], ['Cuenta bancaria', 'iban'], ['Nº cuenta', 'iban'], ['Número de cuenta', 'iban'],
  ['Cuenta corriente', 'iban'],
  ['Apellidos y nombre', null], ['Nombre', null], ['Fecha nacimiento', null], ['F. Nac.', null], ['Importe', null],
  ['Dnis', null], ['Ibanez', null],
];

const COMPROBAR_ALTAS_RED: [string, string | null][] = [
  ['D.N.I. / N.I.E.', 'documento'], ['DNI/NIE', 'documento'], ['N.I.F.', 'documento'], ['Nº documento', 'documento'],
  ['Pasaporte', 'documento'], ['Tipo de documento', 'tipoDocumento'], ['Tipo doc.', 'tipoDocumento'],
  ['N.º Afiliación S.S.', 'naf'], ['Num. Seg. Social', 'naf'], ['Nº SS', 'naf'], ['NAF', 'naf'],
  ['Código cuenta cotización', 'ccc'], ['C.C.C.', 'ccc'], ['Cuenta de cotización', 'ccc'],
  ['Nombre', 'nombre'], ['Apellidos y nombre', null], ['Nombre y apellidos', null], ['Primer apellido', 'primerApellido'],
  ['Apellido 1', 'primerApellido'], ['1er Apellido', 'primerApellido'], ['Segundo apellido', 'segundoApellido'],
  ['Fecha nacimiento', 'fechaNacimiento'], ['Fecha de nacimiento', 'fechaNacimiento'], ['F. Nac.', 'fechaNacimiento'],
  ['F.Nacimiento', 'fechaNacimiento'], ['Fecha alta', 'fechaAlta'], ['F. Alta', 'fechaAlta'], ['Sexo', 'sexo'],
  ['Tipo de contrato', 'tipoContrato'], ['Grupo de cotización', 'grupoCotizacion'], ['Coef. parcialidad', 'coeficiente'],
  ['Cuenta', null], ['IBAN', null],
];

describe('headerKey', () => {
  it('reads dotted abbreviations as words and every way of writing "number" as one word', () => {
    expect(headerKey('D.N.I. / N.I.E.')).toBe('dni nie');
    expect(headerKey('C.C.C.')).toBe('ccc');
    expect(headerKey('N.º Afiliación S.S.')).toBe('numero afiliacion ss');
    for (const header of ['Nº afiliación', 'N.º afiliación', 'N° afiliación', 'Num. afiliación', 'Núm. afiliación', 'Número afiliación', 'Nro. afiliación', 'N afiliación']) {
      expect(headerKey(header), header).toBe('numero afiliacion');
    }
    expect(headerKey('F. Nac.')).toBe('f nac');
    expect(headerKey('Tipo de documento')).toBe('tipo de documento');
  });
});

describe('real header spellings', () => {
  it.each(VALIDAR_IDENTIFICADORES)('validar-identificadores: %s -> %s', (header, key) => {
    expect(columnOf(header, validar)).toBe(key);
  });

  it.each(COMPROBAR_ALTAS_RED)('comprobar-altas-red: %s -> %s', (header, key) => {
    expect(columnOf(header, altas)).toBe(key);
  });

  it('an A3-style export row maps each identifier column once', () => {
    const headers = ['Código', 'Apellidos y nombre', 'D.N.I. / N.I.E.', 'N.º Afiliación S.S.', 'Código cuenta cotización', 'Cuenta', 'F. Nac.'];
    expect(detectColumns(headers, validar).map((found) => [found.header, found.column.key])).toEqual([
      ['D.N.I. / N.I.E.', 'nif'], ['N.º Afiliación S.S.', 'naf'], ['Código cuenta cotización', 'ccc'], ['Cuenta', 'iban'],
    ]);
  });
});
