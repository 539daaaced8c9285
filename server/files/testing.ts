/**
 * Test helpers: zips built entry by entry with yazl, hand-written .xlsx parts, and the zip bomb of
 * issue 18 (a sheet of more than 1,000,000 rows of inline strings in a few hundred KB).
 */
import yazl from 'yazl';

export async function buildZip(entries: Readonly<Record<string, string | Buffer>>, options: { store?: readonly string[] } = {}): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, data] of Object.entries(entries)) {
    zip.addBuffer(Buffer.isBuffer(data) ? data : Buffer.from(data), name, { compress: !(options.store ?? []).includes(name) });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const DOC_RELS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** The parts of a one-sheet .xlsx around `sheetXml` (the worksheet part), with optional shared strings and styles. */
export function xlsxParts(sheetXml: string | Buffer, extra: { sharedStrings?: string; styles?: string; sheetName?: string } = {}): Record<string, string | Buffer> {
  const rels = [`<Relationship Id="rId1" Type="${DOC_RELS}/worksheet" Target="worksheets/sheet1.xml"/>`];
  if (extra.sharedStrings) rels.push(`<Relationship Id="rId2" Type="${DOC_RELS}/sharedStrings" Target="sharedStrings.xml"/>`);
  if (extra.styles) rels.push(`<Relationship Id="rId3" Type="${DOC_RELS}/styles" Target="styles.xml"/>`);
  const sml = 'application/vnd.openxmlformats-officedocument.spreadsheetml';
  const overrides = [
    `<Override PartName="/xl/workbook.xml" ContentType="${sml}.sheet.main+xml"/>`,
    `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="${sml}.worksheet+xml"/>`,
    extra.sharedStrings ? `<Override PartName="/xl/sharedStrings.xml" ContentType="${sml}.sharedStrings+xml"/>` : '',
    extra.styles ? `<Override PartName="/xl/styles.xml" ContentType="${sml}.styles+xml"/>` : '',
  ];
  return {
    '[Content_Types].xml': `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>${overrides.join('')}</Types>`,
    '_rels/.rels': `${XML}<Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="${DOC_RELS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml': `${XML}<workbook xmlns="${MAIN}" xmlns:r="${DOC_RELS}"><sheets><sheet name="${extra.sheetName ?? 'Hoja1'}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `${XML}<Relationships xmlns="${RELS}">${rels.join('')}</Relationships>`,
    'xl/worksheets/sheet1.xml': sheetXml,
    ...(extra.sharedStrings ? { 'xl/sharedStrings.xml': extra.sharedStrings } : {}),
    ...(extra.styles ? { 'xl/styles.xml': extra.styles } : {}),
  };
}

export function worksheet(sheetData: string, before = ''): string {
  return `${XML}<worksheet xmlns="${MAIN}">${before}<sheetData>${sheetData}</sheetData></worksheet>`;
}

/**
 * An .xlsx of a header and `rows` data rows of inline strings: rows without a reference repeat
 * byte for byte, so deflate folds 1,000,001 of them (about 49 MB of XML) into a few hundred KB.
 */
export async function zipBombXlsx(rows: number): Promise<Buffer> {
  const row = '<row><c t="inlineStr"><is><t>x</t></is></c></row>';
  const header = '<row><c t="inlineStr"><is><t>NIF</t></is></c><c t="inlineStr"><is><t>Nombre</t></is></c></row>';
  const sheet = Buffer.from(worksheet(header + row.repeat(rows)));
  return buildZip(xlsxParts(sheet));
}

/**
 * An .ods whose second row is repeated `rows` times (table:number-rows-repeated): a few hundred bytes
 * that SheetJS unfolds into one cell per row, in memory.
 */
export async function repeatedRowsOds(rows: number): Promise<Buffer> {
  const office = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"';
  const cell = (text: string) => `<table:table-cell office:value-type="string"><text:p>${text}</text:p></table:table-cell>`;
  const content = `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${office} xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body><office:spreadsheet><table:table table:name="Hoja1"><table:table-row>${cell('NIF')}${cell('Nombre')}</table:table-row><table:table-row table:number-rows-repeated="${rows}">${cell('x')}</table:table-row></table:table></office:spreadsheet></office:body></office:document-content>`;
  const manifest = `<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`;
  return buildZip(
    {
      mimetype: 'application/vnd.oasis.opendocument.spreadsheet',
      'META-INF/manifest.xml': manifest,
      'content.xml': content,
      'styles.xml': `<?xml version="1.0" encoding="UTF-8"?><office:document-styles ${office} office:version="1.2"/>`,
    },
    { store: ['mimetype'] },
  );
}
