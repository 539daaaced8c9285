import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DOCUMENT_STYLES, type Block } from '#shared/documents/blocks.ts';
import { pdfText as drawableText, renderDocx, renderPdf } from './render.ts';
import { pdfPages, pdfText, TINY_PNG } from './test-support.ts';

const render = (blocks: Block[]) => ({ content: { blocks, styles: DEFAULT_DOCUMENT_STYLES }, title: 'Prueba', signaturePng: null });

describe('render', () => {
  it("draws letters the PDF's standard fonts lack without their accent, and keeps them in the .docx", async () => {
    expect(drawableText('Łukasz Żółć, Nguyễn: ñ € “x” 😀')).toBe('Lukasz Zólc, Nguyen: ñ € “x” ?');
    const input = render([{ type: 'paragraph', text: 'Łukasz Żółć' }]);
    expect(pdfText(Buffer.from(await renderPdf(input)))).toContain('Lukasz Zólc');
    expect(strFromU8(unzipSync(await renderDocx(input))['word/document.xml'] ?? new Uint8Array())).toContain('Łukasz Żółć');
  });

  it('a long table goes on over pages with its header drawn again; the footer counts them', async () => {
    const rows = [['Concepto', 'Importe'], ...Array.from({ length: 120 }, (_, index) => [`Línea ${index + 1}`, `${index},00 €`])];
    const pdf = Buffer.from(await renderPdf(render([{ type: 'table', header: true, rows }])));
    const pages = pdfPages(pdf);
    expect(pages).toBeGreaterThan(1);
    const text = pdfText(pdf);
    expect(text.split('\n').filter((line) => line === 'Concepto')).toHaveLength(pages);
    expect(text).toContain(`Página ${pages} de ${pages}`);
    expect(text).toContain('Línea 120');
  });

  it('a signature block takes the drawn signature in both files', async () => {
    const input = { ...render([{ type: 'signature', label: 'Firma del cliente' }]), signaturePng: new Uint8Array(TINY_PNG) };
    const docx = unzipSync(await renderDocx(input));
    expect(Object.keys(docx).filter((name) => name.startsWith('word/media/'))).toHaveLength(1);
    expect(strFromU8(docx['word/document.xml'] ?? new Uint8Array())).toContain('Firma del cliente');
    expect(Buffer.from(await renderPdf(input)).toString('latin1')).toContain('/Subtype /Image');
  });
});
