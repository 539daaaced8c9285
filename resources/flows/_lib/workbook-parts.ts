import { RELATIONSHIPS_NAMESPACE, SheetWriter, SPREADSHEET_NAMESPACE, escapeXml, type CellValue } from '#shared/spreadsheet/sheet-xml.ts';
import { SheetRewriter, type RewriteStyles } from '#shared/spreadsheet/sheet-rewrite.ts';
import { STYLES_XML, WORKSHEET_CONTENT_TYPE, WORKSHEET_RELATIONSHIP } from '#shared/spreadsheet/xlsx-writer.ts';
import { DRAIN_FROM_BYTES, type ZipBuilder } from '#shared/spreadsheet/zip-builder.ts';
import type { Structure } from '#shared/spreadsheet/xlsx-structure.ts';
import type { ZipReader } from '#shared/spreadsheet/zip-reader.ts';

/** A sheet appended after the streamed ones (Resumen), written whole: it is small. */
export interface AppendedSheet {
  name: string;
  rows: readonly (readonly CellValue[])[];
  widths?: readonly number[];
}

/**
 * The package around the sheets of a streamed .xlsx (workbook-stream.ts): where the input's parts are,
 * and the output's workbook, relationships and content types written anew, as SheetJS writes them
 * anew. Kept: sheet names, order and visibility, the 1904 date system, styles, theme, shared strings.
 * Not kept (SheetJS's path keeps little more): defined names, calcChain, drawings, comments, macros.
 */

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const PACKAGE_RELATIONSHIPS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const DOCUMENT_RELATIONSHIP = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/**
 * The styles to write, with a text format ('@', numFmtId 49) appended to cellXfs for the cells made
 * text (formula-like texts, formulas with no value), and its index.
 */
export function withTextStyle(styles: string | null): { xml: string; textStyle: number } {
  if (styles === null) return { xml: STYLES_XML, textStyle: 1 };
  const match = /<((?:\w+:)?)cellXfs\b([^>]*?)(\/?)>/.exec(styles);
  if (match === null) return { xml: STYLES_XML, textStyle: 1 };
  const [whole, prefix = '', attributes = '', selfClosing] = match;
  const xf = `<${prefix}xf numFmtId="49" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`;
  let count = 0;
  if (selfClosing === '') {
    const end = styles.indexOf(`</${prefix}cellXfs>`, match.index);
    const body = styles.slice(match.index + whole.length, end);
    count = (body.match(new RegExp(`<${prefix}xf\\b`, 'g')) ?? []).length;
    const opening = `<${prefix}cellXfs${attributes.replace(/\s+count="\d*"/, '')} count="${count + 1}">`;
    return { xml: styles.slice(0, match.index) + opening + body + xf + styles.slice(end), textStyle: count };
  }
  return { xml: styles.replace(whole, `<${prefix}cellXfs count="1">${xf}</${prefix}cellXfs>`), textStyle: 0 };
}

/** The other sheets (made inert), the appended ones, and the package parts; then the output's sink is closed. */
export async function finishWorkbook(zip: ZipReader, structure: Structure, output: ZipBuilder, styles: RewriteStyles, appended: readonly AppendedSheet[]): Promise<void> {
  for (const [index, sheet] of structure.sheets.entries()) {
    if (index === 0) continue;
    const entry = output.openFile(`xl/worksheets/sheet${index + 1}.xml`);
    const rewriter = new SheetRewriter(entry, styles, (row, attributes) => rewriter.writeRow(row, attributes, null));
    rewriter.start([]);
    if (sheet.path !== null) await zip.readXml(sheet.path, rewriter.handlers, { afterChunk: () => drained(output) });
    rewriter.finish();
  }
  for (const [index, sheet] of appended.entries()) {
    const writer = new SheetWriter(output.openFile(`xl/worksheets/sheet${structure.sheets.length + index + 1}.xml`), sheet.widths);
    for (const row of sheet.rows) writer.row(row);
    writer.end();
  }
  const theme = structure.themePath !== null;
  if (theme && structure.themePath !== null) output.addFile('xl/theme/theme1.xml', await zip.text(structure.themePath));
  const sheets = [...structure.sheets.map(({ name, state }) => ({ name, state })), ...appended.map(({ name }) => ({ name, state: undefined }))].map((sheet, index) => ({ ...sheet, number: index + 1 }));
  const strings = structure.sharedStringsPath !== null;
  output.addFile(
    '[Content_Types].xml',
    `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
      (strings ? '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' : '') +
      (theme ? '<Override PartName="/xl/theme/theme1.xml" ContentType="application/vnd.openxmlformats-officedocument.theme+xml"/>' : '') +
      sheets.map(({ number }) => `<Override PartName="/xl/worksheets/sheet${number}.xml" ContentType="${WORKSHEET_CONTENT_TYPE}"/>`).join('') +
      '</Types>',
  );
  output.addFile('_rels/.rels', `${XML_HEAD}<Relationships xmlns="${PACKAGE_RELATIONSHIPS}"><Relationship Id="rId1" Type="${DOCUMENT_RELATIONSHIP}/officeDocument" Target="xl/workbook.xml"/></Relationships>`);
  output.addFile(
    'xl/workbook.xml',
    `${XML_HEAD}<workbook xmlns="${SPREADSHEET_NAMESPACE}" xmlns:r="${RELATIONSHIPS_NAMESPACE}">${structure.date1904 ? '<workbookPr date1904="1"/>' : ''}<bookViews><workbookView/></bookViews><sheets>` +
      sheets.map(({ name, number, state }) => `<sheet name="${escapeXml(name)}" sheetId="${number}"${state === 'hidden' || state === 'veryHidden' ? ` state="${state}"` : ''} r:id="rId${number}"/>`).join('') +
      '</sheets></workbook>',
  );
  const more = sheets.length;
  output.addFile(
    'xl/_rels/workbook.xml.rels',
    `${XML_HEAD}<Relationships xmlns="${PACKAGE_RELATIONSHIPS}">` +
      sheets.map(({ number }) => `<Relationship Id="rId${number}" Type="${WORKSHEET_RELATIONSHIP}" Target="worksheets/sheet${number}.xml"/>`).join('') +
      `<Relationship Id="rId${more + 1}" Type="${DOCUMENT_RELATIONSHIP}/styles" Target="styles.xml"/>` +
      (strings ? `<Relationship Id="rId${more + 2}" Type="${DOCUMENT_RELATIONSHIP}/sharedStrings" Target="sharedStrings.xml"/>` : '') +
      (theme ? `<Relationship Id="rId${more + 3}" Type="${DOCUMENT_RELATIONSHIP}/theme" Target="theme/theme1.xml"/>` : '') +
      '</Relationships>',
  );
  await output.end();
}

/** Waits for the sink when enough bytes wait for it (between chunks of a sheet being read). */
export function drained(output: ZipBuilder): Promise<void> {
  return output.backlog >= DRAIN_FROM_BYTES ? output.drain() : Promise.resolve();
}
