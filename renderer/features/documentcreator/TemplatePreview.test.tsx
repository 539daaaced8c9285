import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import type { TemplateContent } from '#shared/documents/blocks.ts';
import { previewValues, splitMarks } from './preview.ts';
import { TemplatePreview } from './TemplatePreview.tsx';

// 09:30 in Madrid (winter, UTC+1).
const now = new Date('2026-12-02T08:30:00Z');

const content: TemplateContent = {
  styles: { font: 'serif', fontSize: 12, accentColor: '#aa0000' },
  blocks: [
    { type: 'heading', level: 1, text: 'Autorización [[Empresa]]' },
    { type: 'paragraph', text: 'En Valencia, a [[DATESTAMP]]. [[IF Menor]]Firma también el tutor.[[/IF]]', align: 'justify' },
    { type: 'list', ordered: true, items: ['NIF: [[NIF trabajador]]'] },
    { type: 'table', header: true, rows: [['Campo', 'Valor'], ['Alta', '[[Fecha Alta]]']] },
    { type: 'pageBreak' },
    { type: 'paragraph', text: 'Firmado: [[SIGNATURE]]' },
    { type: 'signature', label: 'Firma de [[Empresa]]' },
  ],
};

describe('preview values', () => {
  it('marks each field with its own name, and cuts the filled text back into runs and marks', () => {
    const values = previewValues(['Nombre']);
    expect(Object.keys(values)).toEqual(['Nombre', 'SIGNATURE']);
    expect(splitMarks(`Hola ${values.Nombre ?? ''}, firma: ${values.SIGNATURE ?? ''}`)).toEqual([
      { text: 'Hola ' }, { field: 'Nombre' }, { text: ', firma: ' }, { field: 'SIGNATURE' },
    ]);
    expect(splitMarks('sin campos')).toEqual([{ text: 'sin campos' }]);
  });
});

describe('TemplatePreview', () => {
  it('draws the page with the template styles, fields highlighted by name and stamps with the date', () => {
    render(<TemplatePreview content={content} now={now} />);
    const page = screen.getByRole('article', { name: 'Vista previa del documento' }).firstElementChild as HTMLElement;
    expect(page.style.fontFamily).toContain('Times New Roman');
    expect(page.style.fontSize).toBe('12pt');

    const heading = screen.getByRole('heading', { level: 2 });
    expect(heading.textContent).toBe('Autorización Empresa');
    expect(heading.style.color).toBe('rgb(170, 0, 0)');
    const marks = [...document.querySelectorAll('mark')].map((mark) => mark.textContent);
    expect(marks).toEqual(['Empresa', 'NIF trabajador', 'Fecha Alta', 'Firma', 'Empresa']);
    // The stamp is today's date; the IF's text shows (the sample value is filled).
    expect(screen.getByText(/En Valencia, a 02\/12\/2026\. Firma también el tutor\./)).toBeTruthy();
    expect(screen.getByText(/En Valencia/).closest('p')?.style.textAlign).toBe('justify');
    expect(screen.getByRole('columnheader', { name: 'Campo' })).toBeTruthy();
    expect(screen.getByRole('separator', { name: 'Salto de página' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Espacio para la firma' })).toBeTruthy();
    expect(document.querySelector('ol li')?.textContent).toBe('NIF: NIF trabajador');
  });

  it('says what to do when the template has no blocks', () => {
    render(<TemplatePreview content={{ styles: content.styles, blocks: [] }} now={now} />);
    expect(screen.getByText('Añade bloques para ver aquí cómo queda el documento.')).toBeTruthy();
  });
});
