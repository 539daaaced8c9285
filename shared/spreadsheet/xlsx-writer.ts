import { escapeXml, RELATIONSHIPS_NAMESPACE, SheetWriter, SPREADSHEET_NAMESPACE, type CellKind } from './sheet-xml.ts';
import { DRAIN_FROM_BYTES, ZipBuilder, type ByteSink } from './zip-builder.ts';

/**
 * A new .xlsx written sheet by sheet and row by row (the output of a robot that makes its workbook from
 * nothing, such as FIE a incidencias A3). In memory, it holds the compressed bytes written so far, not
 * the rows; given a sink (a robot's output, an HTTP reply), it holds neither: its bytes go to the sink as
 * they are made, and the writer awaits `flushed()` now and then so they do not pile up.
 *
 *   const book = new XlsxWriter();
 *   const sheet = book.addSheet('Incidencias', [14, 12]);
 *   sheet.row(['NIF', 'Días']); sheet.row(['12345678Z', 3]); sheet.end();
 *   const bytes = book.finish();
 *
 *   const streamed = new XlsxWriter(output);
 *   ... for each row: streamed sheet.row(...); if (streamed.backlogged) await streamed.flushed();
 *   await streamed.end();
 */

const CONTENT_TYPES_NAMESPACE = 'http://schemas.openxmlformats.org/package/2006/content-types';
const PACKAGE_RELATIONSHIPS_NAMESPACE = 'http://schemas.openxmlformats.org/package/2006/relationships';
const DOCUMENT_RELATIONSHIP = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
export const WORKSHEET_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml';
export const WORKSHEET_RELATIONSHIP = `${DOCUMENT_RELATIONSHIP}/worksheet`;
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/**
 * Four cell formats: 0 General, 1 text ('@', numFmtId 49: sheet-xml.ts TEXT_STYLE), 2 date
 * (dd/mm/yyyy, custom numFmtId 164: sheet-xml.ts DATE_STYLE) and 3 euros (#,##0.00 "€", custom
 * numFmtId 165: sheet-xml.ts EUROS_STYLE; Excel shows it with the reader's separators).
 */
export const STYLES_XML =
  `${XML_HEAD}<styleSheet xmlns="${SPREADSHEET_NAMESPACE}">` +
  '<numFmts count="2"><numFmt numFmtId="164" formatCode="dd/mm/yyyy"/><numFmt numFmtId="165" formatCode="#,##0.00\\ &quot;€&quot;"/></numFmts>' +
  '<fonts count="1"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="49" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>';

export class XlsxWriter {
  private readonly zip: ZipBuilder;
  private readonly sheetNames: string[] = [];
  private open: SheetWriter | null = null;

  /** In memory (`finish()`), or streamed to `sink` (`end()`); `modified` dates the parts (ZipBuilder). */
  constructor(sink: ByteSink | null = null, options: { modified?: Date } = {}) {
    this.zip = new ZipBuilder(sink, options.modified);
  }

  /** Whether enough bytes wait for the sink that the writer should `await flushed()` (never in memory). */
  get backlogged(): boolean {
    return this.zip.backlog >= DRAIN_FROM_BYTES;
  }

  /** Resolves once the bytes made so far are in the sink. */
  flushed(): Promise<void> {
    return this.zip.drain();
  }

  /**
   * The next sheet; the one before must have ended. `name` must already be a valid sheet name (at most
   * 31 characters, none of [ ] : * ? / \, unique ignoring case). `kinds`: each column's CellKind
   * (a 'date' column writes its numbers as dates).
   */
  addSheet(name: string, widths?: readonly (number | undefined)[], kinds?: readonly (CellKind | undefined)[]): SheetWriter {
    if (this.open !== null) throw new Error(`La hoja anterior a «${name}» no se ha cerrado`);
    if (this.sheetNames.some((taken) => taken.toLowerCase() === name.toLowerCase())) throw new Error(`La hoja «${name}» ya existe en el libro`);
    this.sheetNames.push(name);
    const entry = this.zip.openFile(`xl/worksheets/sheet${this.sheetNames.length}.xml`);
    const sheet = new SheetWriter(
      {
        write: (text) => entry.write(text),
        end: () => {
          entry.end();
          this.open = null;
        },
      },
      widths,
      kinds,
    );
    this.open = sheet;
    return sheet;
  }

  /** Writes the workbook's parts and gives the .xlsx bytes (in memory). */
  finish(): Uint8Array {
    this.writeParts();
    return this.zip.finish();
  }

  /** Writes the workbook's parts, hands the last bytes to the sink and closes it (streamed). */
  async end(): Promise<void> {
    this.writeParts();
    await this.zip.end();
  }

  private writeParts(): void {
    if (this.open !== null) throw new Error('Falta cerrar la última hoja del libro');
    if (this.sheetNames.length === 0) throw new Error('Un libro necesita al menos una hoja');
    const sheets = this.sheetNames.map((name, index) => ({ name, number: index + 1 }));
    this.zip.addFile(
      '[Content_Types].xml',
      `${XML_HEAD}<Types xmlns="${CONTENT_TYPES_NAMESPACE}">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
        sheets.map(({ number }) => `<Override PartName="/xl/worksheets/sheet${number}.xml" ContentType="${WORKSHEET_CONTENT_TYPE}"/>`).join('') +
        '</Types>',
    );
    this.zip.addFile(
      '_rels/.rels',
      `${XML_HEAD}<Relationships xmlns="${PACKAGE_RELATIONSHIPS_NAMESPACE}"><Relationship Id="rId1" Type="${DOCUMENT_RELATIONSHIP}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    );
    this.zip.addFile(
      'xl/workbook.xml',
      `${XML_HEAD}<workbook xmlns="${SPREADSHEET_NAMESPACE}" xmlns:r="${RELATIONSHIPS_NAMESPACE}"><sheets>` +
        sheets.map(({ name, number }) => `<sheet name="${escapeXml(name)}" sheetId="${number}" r:id="rId${number}"/>`).join('') +
        '</sheets></workbook>',
    );
    this.zip.addFile(
      'xl/_rels/workbook.xml.rels',
      `${XML_HEAD}<Relationships xmlns="${PACKAGE_RELATIONSHIPS_NAMESPACE}">` +
        sheets.map(({ number }) => `<Relationship Id="rId${number}" Type="${WORKSHEET_RELATIONSHIP}" Target="worksheets/sheet${number}.xml"/>`).join('') +
        `<Relationship Id="rId${sheets.length + 1}" Type="${DOCUMENT_RELATIONSHIP}/styles" Target="styles.xml"/>` +
        '</Relationships>',
    );
    this.zip.addFile('xl/styles.xml', STYLES_XML);
  }
}
