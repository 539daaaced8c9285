import { describe, expect, it } from 'vitest';
import { isTruthyTemplateValue, renderDocumentTemplate } from './template.ts';

const now = new Date('2025-03-30T07:05:09Z'); // 09:05:09 CEST in Madrid

describe('renderDocumentTemplate', () => {
  it('fills the stamps on the Madrid clock', () => {
    expect(renderDocumentTemplate('[[DATESTAMP]] | [[TIMESTAMP]] | [[DATETIMESTAMP]]', {}, now))
      .toBe('30/03/2025 | 09:05:09 | 30/03/2025 09:05');
  });

  it('fills values by key, including keys with spaces and accents', () => {
    const values = { nombre: 'Ana', 'Fecha Alta': new Date('2025-01-31T23:30:00Z'), CCC: ['281', '282'], vacío: null };
    expect(renderDocumentTemplate('Alta de [[nombre]] el [[ Fecha Alta ]] en [[CCC]].[[vacío]]', values, now))
      .toBe('Alta de Ana el 01/02/2025 en 281, 282.');
  });

  it('leaves unknown placeholders visible and does not expand inserted values', () => {
    expect(renderDocumentTemplate('[[apellido]] [[nombre]]', { nombre: '[[DATESTAMP]]' }, now)).toBe('[[apellido]] [[DATESTAMP]]');
  });

  it('puts the signature in when given and keeps its place otherwise', () => {
    expect(renderDocumentTemplate('Firmado: [[SIGNATURE]]', { SIGNATURE: 'Ana García' }, now)).toBe('Firmado: Ana García');
    expect(renderDocumentTemplate('Firmado: [[SIGNATURE]]', {}, now)).toBe('Firmado: [[SIGNATURE]]');
  });

  it('keeps an IF block for a truthy value and drops it otherwise', () => {
    const template = 'Contrato[[IF temporal]] temporal hasta [[fin]][[/IF]].';
    expect(renderDocumentTemplate(template, { temporal: true, fin: '31/12/2025' }, now)).toBe('Contrato temporal hasta 31/12/2025.');
    expect(renderDocumentTemplate(template, { temporal: 'false', fin: '31/12/2025' }, now)).toBe('Contrato.');
    expect(renderDocumentTemplate(template, {}, now)).toBe('Contrato.');
  });

  it('nests IF blocks and spans lines', () => {
    const template = '[[IF a]]A\n[[IF b]]B\n[[/IF]]fin A[[/IF]]|';
    expect(renderDocumentTemplate(template, { a: 1, b: 'sí' }, now)).toBe('A\nB\nfin A|');
    expect(renderDocumentTemplate(template, { a: 1 }, now)).toBe('A\nfin A|');
    expect(renderDocumentTemplate(template, { b: true }, now)).toBe('|');
  });

  it('leaves an unclosed IF as written', () => {
    expect(renderDocumentTemplate('[[IF a]]texto', { a: true }, now)).toBe('[[IF a]]texto');
  });
});

describe('isTruthyTemplateValue', () => {
  it('treats blank, false-like and empty values as false', () => {
    for (const value of [undefined, null, false, 0, Number.NaN, '', '  ', 'false', 'FALSE', []]) {
      expect(isTruthyTemplateValue(value)).toBe(false);
    }
    for (const value of [true, 1, 'sí', ['x'], {}]) expect(isTruthyTemplateValue(value)).toBe(true);
  });
});
