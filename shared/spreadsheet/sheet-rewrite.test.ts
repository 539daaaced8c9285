import { describe, expect, it } from 'vitest';
import { SheetRewriter } from './sheet-rewrite.ts';
import { xmlFeed } from './xml.ts';
import { ZipBuilder } from './zip-builder.ts';
import { ZipReader } from './zip-reader.ts';

function rewrite(xml: string, added: { after: number; width: number }[], results: (row: number) => string[] | null): string {
  let written = '';
  const rewriter = new SheetRewriter({ write: (text) => void (written += text), end: () => undefined }, { textStyle: 9, sharedLooksLikeFormula: (index) => index === 1 }, (row, attributes) =>
    rewriter.writeRow(row, attributes, results(row.index)),
  );
  rewriter.start(added);
  const feed = xmlFeed(rewriter.handlers);
  feed.write(xml);
  feed.close();
  rewriter.finish();
  return written.slice(written.indexOf('<worksheet'));
}

const SHEET =
  '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:x14ac="x"><dimension ref="A1:D3"/>' +
  '<cols><col min="1" max="4" width="10" customWidth="1"/></cols>' +
  '<sheetData><row r="1" spans="1:4" ht="20" customHeight="1" x14ac:dyDescent="0.25"><c r="A1" t="s"><v>0</v></c><c r="B1" s="2" t="s"><v>1</v></c><c r="D1"><f>1+1</f><v>2</v></c></row>' +
  '<row r="3"><c r="A3" t="e"><f>1/0</f><v>#DIV/0!</v></c><c r="B3" t="str"><f>"-"&amp;"x"</f><v>-x</v></c><c r="C3" s="1"/></row></sheetData>' +
  '<conditionalFormatting sqref="A1:D3"><cfRule type="expression" priority="1"><formula>A1</formula></cfRule></conditionalFormatting>' +
  '<mergeCells count="1"><mergeCell ref="B1:D1"/></mergeCells><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>';

describe('SheetRewriter', () => {
  it('inserts columns, moves cells, widths, merges and dimension along, and makes every cell inert', () => {
    const xml = rewrite(SHEET, [{ after: 0, width: 14 }, { after: 3, width: 12 }], (row) => (row === 0 ? ['R1', 'R2'] : null));
    expect(xml).toContain('<dimension ref="A1:F3"/>');
    expect(xml).toContain('<cols><col min="1" max="1" width="10" customWidth="1"/><col min="2" max="2" width="14" customWidth="1"/><col min="3" max="5" width="10" customWidth="1"/><col min="6" max="6" width="12" customWidth="1"/></cols>');
    // Row attributes kept but the stale spans and foreign ones; results inline after their columns; the formula gone, its value kept.
    expect(xml).toContain(
      '<row r="1" ht="20" customHeight="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>R1</t></is></c><c r="C1" s="9" t="s"><v>1</v></c><c r="E1"><v>2</v></c><c r="F1" t="inlineStr"><is><t>R2</t></is></c></row>',
    );
    // An error formula becomes its text; a formula-like text gets the text format; a stub stays a stub.
    expect(xml).toContain('<c r="A3" s="9" t="inlineStr"><is><t xml:space="preserve">=1/0</t></is></c><c r="C3" s="9" t="inlineStr"><is><t xml:space="preserve">-x</t></is></c><c r="D3" s="1"/>');
    expect(xml).toContain('<mergeCells count="1"><mergeCell ref="C1:E1"/></mergeCells><pageMargins');
    expect(xml).not.toContain('conditionalFormatting');
    expect(xml).not.toContain('<f>');
  });

  it('copies a sheet unchanged in place when nothing is added', () => {
    const xml = rewrite(SHEET, [], () => null);
    expect(xml).toContain('<dimension ref="A1:D3"/>');
    expect(xml).toContain('<mergeCell ref="B1:D1"/>');
    expect(xml).toContain('<c r="D1"><v>2</v></c>');
  });
});

describe('ZipReader', () => {
  it('reads what ZipBuilder writes, inflated in chunks or copied as stored', async () => {
    const builder = new ZipBuilder();
    const big = '<a>' + 'x'.repeat(300_000) + '</a>';
    builder.addFile('xl/big.xml', big);
    builder.addFile('ñ.txt', 'hola');
    const zip = ZipReader.open(builder.finish());
    expect(zip.names()).toEqual(['xl/big.xml', 'ñ.txt']);
    expect(await zip.text('XL/BIG.xml')).toBe(big);
    const copy = new ZipBuilder();
    copy.addRaw('b.xml', zip.raw('xl/big.xml'));
    expect(await ZipReader.open(copy.finish()).text('b.xml')).toBe(big);
    expect(() => ZipReader.open(new Uint8Array(100))).toThrow('No es un archivo zip');
  });
});
