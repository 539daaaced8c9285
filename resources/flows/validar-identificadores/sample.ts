import { escapeXml } from '#shared/spreadsheet/sheet-xml.ts';
import { ZipBuilder } from '#shared/spreadsheet/zip-builder.ts';

/**
 * A workers' workbook of any size as Excel writes one, for the streaming tests and the bench: text in
 * the shared string table (names repeated, identifiers unique), a CCC as a number formatted
 * '00000000000' (some with General, their zero lost), a title row merged above the header, a blank
 * row now and then, formulas (one with an error), a text that looks like a formula, and a second sheet.
 * About one value in ten is wrong, so the results are not all 'OK'.
 */

const LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';
const NAMES = ['María', 'José', 'Ana', 'Luis', 'Begoña', 'Íñigo', 'Carmen', 'Jordi', 'Lucía', 'Pablo', 'Nerea', 'Álvaro'];
const SURNAMES = ['García López', 'Muñoz Peña', 'Ibáñez', 'Azcárate', 'Martín', 'Pérez Ruiz', 'Núñez Íñiguez', 'Sánchez & Hijos'];

function mod97(digits: string): number {
  let remainder = 0;
  for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  return remainder;
}

export function sampleNif(row: number): string {
  const number = 10_000_000 + ((row * 7919) % 89_999_999);
  const letter = LETTERS[number % 23] ?? 'T';
  return row % 20 === 7 ? `${number}${LETTERS[(number + 1) % 23]}` : `${number}${letter}`;
}

export function sampleNaf(row: number): string {
  const province = 8 + (row % 40);
  const number = 10_000_000 + ((row * 104_729) % 89_999_999);
  const base = `${String(province).padStart(2, '0')}${number}`;
  const control = row % 25 === 3 ? (Number(base) + 1) % 97 : Number(base) % 97;
  return `${base}${String(control).padStart(2, '0')}`;
}

export function sampleIban(row: number): string {
  const account = `2100${String(418 + (row % 9000)).padStart(4, '0')}45${String(200_000_000 + row * 13).slice(-10)}`.padEnd(20, '0');
  const check = 98 - mod97(`${account}142800`);
  const iban = `ES${String(check).padStart(2, '0')}${account}`;
  return row % 30 === 11 ? iban.replace(/\d$/, (digit) => String((Number(digit) + 1) % 10)) : iban;
}

export function sampleCcc(row: number): string {
  const first = `${String(1 + (row % 52)).padStart(2, '0')}${String(1_000_000 + ((row * 31) % 8_999_999))}`;
  const control = row % 40 === 9 ? (mod97(first) + 1) % 97 : mod97(first);
  return `${first}${String(control).padStart(2, '0')}`;
}

const STYLES =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
  '<numFmts count="1"><numFmt numFmtId="164" formatCode="00000000000"/></numFmts>' +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>';

const HEADERS = ['Nombre', 'Apellidos', 'DNI/NIE', 'Nº afiliación', 'Cuenta bancaria (IBAN)', 'CCC', 'Horas', 'Observaciones'];
const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

/** The .xlsx bytes of a workbook with `rows` workers below a title and a header (row 3). */
export function sampleWorkbook(rows: number): Uint8Array {
  const zip = new ZipBuilder();
  const strings: string[] = [];
  const indexOf = new Map<string, number>();
  let references = 0;
  const shared = (text: string, reuse: boolean) => {
    references += 1;
    let index = reuse ? indexOf.get(text) : undefined;
    if (index === undefined) {
      index = strings.push(text) - 1;
      if (reuse) indexOf.set(text, index);
    }
    return index;
  };
  const text = (reference: string, value: string, reuse = false, style = '') => `<c r="${reference}"${style} t="s"><v>${shared(value, reuse)}</v></c>`;

  const last = rows + 3;
  const sheet = zip.openFile('xl/worksheets/sheet1.xml');
  sheet.write(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet ${NS}><dimension ref="A1:H${last}"/>`);
  sheet.write('<sheetViews><sheetView workbookViewId="0"><pane ySplit="3" topLeftCell="A4" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>');
  sheet.write('<sheetFormatPr defaultRowHeight="15"/><cols><col min="1" max="2" width="18" customWidth="1"/><col min="3" max="6" width="26" customWidth="1"/></cols><sheetData>');
  sheet.write(`<row r="1">${text('A1', 'Plantilla de prueba', true, ' s="2"')}</row>`);
  sheet.write(`<row r="3">${HEADERS.map((header, column) => text(`${'ABCDEFGH'[column]}3`, header, true, ' s="2"')).join('')}</row>`);
  for (let row = 1; row <= rows; row += 1) {
    const r = row + 3;
    if (row % 997 === 500) {
      sheet.write(`<row r="${r}"/>`);
      continue;
    }
    const ccc = sampleCcc(row);
    const cccCell = row % 3 === 0 ? text(`F${r}`, ccc) : `<c r="F${r}" s="${row % 50 === 1 ? 0 : 1}"><v>${Number(ccc)}</v></c>`;
    const naf = sampleNaf(row);
    const nafCell = row % 7 === 0 ? `<c r="D${r}"><v>${Number(naf)}</v></c>` : text(`D${r}`, naf);
    const hours = row % 1000 === 0 ? `<c r="G${r}" t="e"><f>1/0</f><v>#DIV/0!</v></c>` : row % 100 === 0 ? `<c r="G${r}"><f>5*8</f><v>40</v></c>` : `<c r="G${r}"><v>${20 + (row % 21)}</v></c>`;
    const note = row % 500 === 0 ? text(`H${r}`, '-5 días de vacaciones', true) : row % 13 === 0 ? text(`H${r}`, `Nota ${row} <revisar>`) : '';
    const nif = row % 211 === 0 ? '' : text(`C${r}`, sampleNif(row));
    sheet.write(
      `<row r="${r}" spans="1:8">${text(`A${r}`, NAMES[row % NAMES.length] ?? '', true)}${text(`B${r}`, SURNAMES[row % SURNAMES.length] ?? '', true)}${nif}${nafCell}${text(`E${r}`, sampleIban(row))}${cccCell}${hours}${note}</row>`,
    );
  }
  sheet.write('</sheetData><mergeCells count="1"><mergeCell ref="A1:D1"/></mergeCells><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>');
  sheet.end();

  zip.addFile(
    'xl/worksheets/sheet2.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet ${NS}><dimension ref="A1:B2"/><sheetData><row r="1">${text('A1', 'Total filas', true)}<c r="B1"><f>ROWS(Plantilla!A:A)</f><v>${last}</v></c></row><row r="2">${text('A2', '=no es una fórmula', true)}</row></sheetData></worksheet>`,
  );
  const sst = zip.openFile('xl/sharedStrings.xml');
  sst.write(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${references}" uniqueCount="${strings.length}">`);
  for (const value of strings) sst.write(`<si><t>${escapeXml(value)}</t></si>`);
  sst.write('</sst>');
  sst.end();
  zip.addFile('xl/styles.xml', STYLES);
  zip.addFile(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
      '<Override PartName="/xl/worksheets/sheet2.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
      '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' +
      '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>',
  );
  zip.addFile('_rels/.rels', '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>');
  zip.addFile('xl/workbook.xml', `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook ${NS}><sheets><sheet name="Plantilla" sheetId="1" r:id="rId1"/><sheet name="Notas" sheetId="2" r:id="rId2"/></sheets><calcPr calcId="191029"/></workbook>`);
  const rel = (id: number, type: string, target: string) => `<Relationship Id="rId${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${target}"/>`;
  zip.addFile(
    'xl/_rels/workbook.xml.rels',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rel(1, 'worksheet', 'worksheets/sheet1.xml')}${rel(2, 'worksheet', 'worksheets/sheet2.xml')}${rel(3, 'styles', 'styles.xml')}${rel(4, 'sharedStrings', 'sharedStrings.xml')}</Relationships>`,
  );
  return zip.finish();
}
