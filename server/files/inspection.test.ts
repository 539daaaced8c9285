import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as XLSX from 'xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeFie } from '#shared/fie/decode.ts';
import { workbookColumns } from '../modules/storage/workbook.ts';
import { FileRefusal } from './errors.ts';
import { inspectStoredFile } from './inspection.ts';
import { buildZip, worksheet, xlsxParts, zipBombXlsx } from './testing.ts';
import { DecompressionBudget } from './zip.ts';

const root = new URL('../../', import.meta.url).pathname;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inspection-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

let counter = 0;
async function stored(name: string, data: Buffer | string): Promise<string> {
  const path = join(dir, `${counter++}-${name}`);
  await writeFile(path, data);
  return path;
}

const typeOf = (name: string) => (name.lastIndexOf('.') <= 0 ? 'fie' : name.slice(name.lastIndexOf('.') + 1).toLowerCase());

/** The streamed inspection agrees with SheetJS read whole (what the robots and the old route did). */
async function expectSameAsSheetJs(name: string, data: Buffer | string): Promise<void> {
  const path = await stored(name, data);
  const inspection = await inspectStoredFile(path, name, typeOf(name));
  expect(inspection.sheet, name).toEqual(workbookColumns(name, typeof data === 'string' ? Buffer.from(data) : data));
}

async function refusal(name: string, data: Buffer | string, budget?: DecompressionBudget): Promise<FileRefusal> {
  const path = await stored(name, data);
  const error = await inspectStoredFile(path, name, typeOf(name), budget).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(FileRefusal);
  return error as FileRefusal;
}

function book(rows: unknown[][], options: { bookType?: XLSX.BookType; formats?: Record<string, string> } = {}): Buffer {
  const sheet = XLSX.utils.aoa_to_sheet(rows);
  for (const [address, format] of Object.entries(options.formats ?? {})) {
    const cell = sheet[address] as XLSX.CellObject | undefined;
    if (cell) cell.z = format;
  }
  const workbook = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(workbook, sheet, 'Trabajadores');
  return XLSX.write(workbook, { type: 'buffer', bookType: options.bookType ?? 'xlsx', cellStyles: true }) as Buffer;
}

describe('inspectStoredFile: workbooks give the same columns and rows as SheetJS', () => {
  it('on the flows’ fixtures and templates', async () => {
    const files = [
      'resources/flows/comprobar-altas-red/fixtures/altas.xlsx',
      'resources/flows/comprobar-altas-red/fixtures/altas-latin1.csv',
      'resources/flows/comprobar-altas-red/plantilla.xlsx',
      'resources/flows/validar-identificadores/fixtures/trabajadores.xlsx',
      'resources/flows/validar-identificadores/fixtures/trabajadores-latin1.csv',
      'resources/flows/validar-identificadores/fixtures/trabajadores-utf8.csv',
      'resources/flows/validar-identificadores/plantilla.xlsx',
      'resources/flows/fie-incidencias-a3/fixtures/fie-excel.xlsx',
      'shared/fie/fixtures/damaged-cell-type.xlsx',
    ];
    for (const file of files) await expectSameAsSheetJs(file.split('/').pop() ?? file, await readFile(join(root, file)));
  });

  it('on titles, blank rows, a header found late, one-column sheets and blank-looking cells', async () => {
    const cases: unknown[][][] = [
      [['Listado de enero'], [], ['NIF', 'Nombre', 'IBAN'], ['12345678Z', 'Ana', ''], [], ['X1234567L', 'Luis', 'ES12'], [null, '   ', null]],
      [['NIF'], ['12345678Z'], [''], ['X1234567L']],
      [...Array.from({ length: 12 }, () => []), ['Solo'], ['a', 'b'], ['c']],
      [[], [], ['Título'], [], ['A', 'B'], ['1', '2']],
      [['Año', 2025, true, 3.75, -1], [1, 2, 3], [false], ['']],
      [],
    ];
    for (const [index, rows] of cases.entries()) await expectSameAsSheetJs(`caso ${index}.xlsx`, book(rows));
  });

  it('on number formats: a date header, zero-padded codes and a hidden format (;;;) on a whole row', async () => {
    const rows = [[45_000, 'Importe', 7], [1, 2.5, 3], [0, 0, 0], [4, 5, 6]];
    await expectSameAsSheetJs('formatos.xlsx', book(rows, { formats: { A1: 'dd/mm/yyyy', C1: '00000000000', A3: ';;;', B3: ';;;', C3: ';;;', B2: '0.00 €' } }));
  });

  it('on .xls and .ods, which SheetJS reads inside the child', async () => {
    const rows = [['Plantilla'], [], ['NIF', 'Nombre'], ['12345678Z', 'Ana'], ['X1234567L', 'Luis']];
    await expectSameAsSheetJs('lista.xls', book(rows, { bookType: 'biff8' }));
    await expectSameAsSheetJs('lista.ods', book(rows, { bookType: 'ods' }));
  });

  it('on hand-written sheets: shared strings with rich runs, no dimension, a dimension narrower than the cells, formulas without values', async () => {
    const sharedStrings = '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>NIF</t></si><si><r><t>Nom</t></r><r><t>bre</t></r><rPh><t>ノ</t></rPh></si><si><t xml:space="preserve">   </t></si><si><t>Ana &amp; Luis_x000D_</t></si></sst>';
    const sheets = [
      worksheet('<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row><row r="2"><c r="A2" t="s"><v>2</v></c></row><row r="3"><c r="B3" t="s"><v>3</v></c></row><row r="4"><c r="A4"><f>1+1</f></c></row>'),
      worksheet('<row r="2"><c r="A2" t="s"><v>0</v></c><c r="B2" t="s"><v>1</v></c><c r="C2" t="s"><v>3</v></c></row><row r="3"><c r="C3" t="s"><v>3</v></c></row><row r="4"><c r="A4" t="s"><v>3</v></c></row>', '<dimension ref="A1:B3"/>'),
      worksheet('<row><c t="s"><v>0</v></c><c t="s"><v>1</v></c></row><row/><row><c/><c t="inlineStr"><is><t>x</t></is></c></row>', '<dimension ref="A1"/>'),
    ];
    for (const [index, sheet] of sheets.entries()) {
      await expectSameAsSheetJs(`mano ${index}.xlsx`, await buildZip(xlsxParts(sheet, { sharedStrings })));
    }
  });

  it('on built-in and custom number formats of an Excel styles part, and the 1904 date system', async () => {
    const styles =
      '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="2"><numFmt numFmtId="164" formatCode=";;;"/><numFmt numFmtId="165" formatCode="&quot;Ref. &quot;@"/></numFmts>' +
      '<cellXfs count="6"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/><xf numFmtId="2"/><xf numFmtId="164"/><xf numFmtId="165"/><xf numFmtId="49"/></cellXfs></styleSheet>';
    const sheet = worksheet(
      '<row r="1"><c r="A1" s="1"><v>45000</v></c><c r="B1" s="2"><v>3.14159</v></c><c r="C1" t="inlineStr" s="4"><is><t>7</t></is></c><c r="D1" s="5"><v>12</v></c><c r="E1" t="b"><v>1</v></c></row>' +
        '<row r="2"><c r="A2" s="3"><v>1</v></c><c r="B2" s="3" t="inlineStr"><is><t>oculto</t></is></c></row>' +
        '<row r="3"><c r="C3" s="4" t="inlineStr"><is><t> </t></is></c></row><row r="4"><c r="E4" t="e"><v>#N/A</v></c></row>',
    );
    await expectSameAsSheetJs('estilos.xlsx', await buildZip(xlsxParts(sheet, { styles })));
    const parts = xlsxParts(sheet, { styles });
    parts['xl/workbook.xml'] = String(parts['xl/workbook.xml']).replace('<sheets>', '<workbookPr date1904="1"/><sheets>');
    await expectSameAsSheetJs('1904.xlsx', await buildZip(parts));
  });

  it('on CSVs: separators (sep= line, guessed, ties), quotes, CRLF, lone CR, BOM, Latin-1 and an empty file', async () => {
    const cases = [
      'NIF;Nombre\n12345678Z;Ana\n',
      'sep=,\r\nNIF;Nombre,Apellido\r\n1;2,3\r\n',
      'a,b;c\n1,2;3\n',
      '"NIF";"Nombre ""apodo"""\r\n"1";"Ana\nMaría"\r\n\r\n"2";""\r\n',
      'Título\r\rNIF\tNombre\r1\tAna\r',
      '\uFEFFNIF|Nombre|Otro\n1|2|3\n|  |\n',
      'x;"abc"def;y\n1;2;3',
      'a;"b\n1;2\n3;4',
      'a;b;\n1;;\n"";"  "\n',
      '',
      '\n\n\n',
    ];
    for (const [index, text] of cases.entries()) await expectSameAsSheetJs(`lista ${index}.csv`, text);
    await expectSameAsSheetJs('latin1.csv', Buffer.from('NIF;Año;Población\n1;2;Logroño\n', 'latin1'));
  });
});

describe('inspectStoredFile: caps and refusals', () => {
  it('refuses a zip bomb of 1,000,001 data rows with the row cap, reading it as a stream', async () => {
    const bomb = await zipBombXlsx(1_000_001);
    expect(bomb.length).toBeLessThan(1_000_000);
    const refused = await refusal('bomba.xlsx', bomb);
    expect(refused.kind).toBe('cap');
    expect(refused.message).toBe('El archivo tiene más de 1.000.000 filas, el máximo que se lee. Divídelo en archivos más pequeños.');
  }, 60_000);

  it('counts exactly 1,000,000 data rows as allowed', async () => {
    const path = await stored('justo.xlsx', await zipBombXlsx(1_000_000));
    expect((await inspectStoredFile(path, 'justo.xlsx', 'xlsx')).sheet).toEqual({ sheet: 'Hoja1', columns: ['NIF', 'Nombre'], rowCount: 1_000_000 });
  }, 60_000);

  it('stops at the decompressed-bytes cap, whatever the entries declare', async () => {
    const refused = await refusal('grande.xlsx', await zipBombXlsx(10_000), new DecompressionBudget(100_000));
    expect(refused.kind).toBe('cap');
    expect(refused.message).toBe('El archivo ocupa más de 100 kB descomprimido, el máximo que se lee. Guárdalo de nuevo o divídelo en archivos más pequeños.');
  });

  it('refuses a zip whose directory declares more than the cap, and one whose entry inflates past its declared size', async () => {
    const zip = await zipBombXlsx(1_000);
    const declaring = (size: number) => {
      const patched = Buffer.from(zip);
      // Every central directory header (PK 01 02) of the sheet part: its uncompressed size is at offset 24.
      for (let at = patched.indexOf('PK\u0001\u0002'); at !== -1; at = patched.indexOf('PK\u0001\u0002', at + 4)) {
        const nameLength = patched.readUInt16LE(at + 28);
        if (patched.toString('latin1', at + 46, at + 46 + nameLength) === 'xl/worksheets/sheet1.xml') patched.writeUInt32LE(size, at + 24);
      }
      return patched;
    };
    const huge = await refusal('declara.xlsx', declaring(4_000_000_000));
    expect(huge.kind).toBe('cap');
    expect(huge.message).toContain('más de 1 GB descomprimido');
    const lying = await refusal('miente.xlsx', declaring(1_000));
    expect(lying.kind).toBe('unreadable');
    expect(lying.message).toContain('La parte xl/worksheets/sheet1.xml está dañada');
  });

  it('refuses a CSV of more than 1,048,576 lines, blank ones included, and reads a titled one quickly', async () => {
    const refused = await refusal('vacio.csv', `NIF;Nombre\n${'\n'.repeat(1_048_577)}`);
    expect(refused.kind).toBe('cap');
    const titled = await stored('titulo.csv', `Listado de enero\n\nNIF;Nombre\n${'12345678Z;Ana\n'.repeat(300_000)}`);
    expect((await inspectStoredFile(titled, 'titulo.csv', 'csv')).sheet).toEqual({ sheet: 'titulo', columns: ['NIF', 'Nombre'], rowCount: 300_000 });
  }, 30_000);

  it('tells apart what is not the claimed type (415) from what is damaged (422)', async () => {
    const docx = await buildZip({ '[Content_Types].xml': '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>', 'word/document.xml': '<w:document/>' });
    expect((await refusal('informe.xlsx', docx)).kind).toBe('type');
    expect((await refusal('hoja.ods', docx)).kind).toBe('type');
    expect((await refusal('roto.xlsx', Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(200, 7)]))).kind).toBe('unreadable');
    const badXml = await buildZip(xlsxParts(worksheet('<row><c t="s"><v>0</v></row>')));
    expect((await refusal('xml roto.xlsx', badXml)).kind).toBe('unreadable');
    const missingString = await buildZip(xlsxParts(worksheet('<row><c t="s"><v>7</v></c></row>')));
    expect((await refusal('sin textos.xlsx', missingString)).message).toBe('La hoja usa el texto compartido n.º 7, que no existe en el libro');
    expect((await refusal('binario.csv', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2]))).kind).toBe('type');
  });

  it('expands no entity a DTD declares (no billion laughs): such a sheet is refused as unreadable', async () => {
    const doctype = '<!DOCTYPE w [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>';
    const sheet = worksheet('<row><c t="inlineStr"><is><t>&b;</t></is></c><c t="inlineStr"><is><t>NIF</t></is></c></row>').replace('<worksheet', `${doctype}<worksheet`);
    // saxes reports the entity as undefined; that error is no longer hidden by the stop at </sheetData>.
    expect((await refusal('entidades.xlsx', await buildZip(xlsxParts(sheet)))).kind).toBe('unreadable');
  });
});

describe('inspectStoredFile: FIE and text files', () => {
  it('counts a FIE’s entries as the decoder does, whatever its name says (.txt, .fie, none)', async () => {
    for (const file of ['resources/flows/fie-incidencias-a3/fixtures/synthetic-fie4.txt', 'resources/flows/fie-incidencias-a3/fixtures/fie3-latin1.fie']) {
      const data = await readFile(join(root, file));
      const entries = decodeFie(data).entries.length;
      expect(entries).toBeGreaterThan(0);
      for (const [name, type] of [['parte.txt', 'txt'], ['parte.fie', 'fie'], ['FIE20250115', 'fie']] as const) {
        expect(await inspectStoredFile(await stored(name, data), name, type)).toEqual({ detectedType: 'fie', sheet: null, entryCount: entries });
      }
    }
  });

  it('keeps a text file that is not a FIE as text, and refuses it as a FIE', async () => {
    const data = await readFile(join(root, 'resources/flows/fie-incidencias-a3/fixtures/no-es-un-fie.txt'));
    expect(await inspectStoredFile(await stored('notas.txt', data), 'notas.txt', 'txt')).toEqual({ detectedType: 'txt', sheet: null, entryCount: null });
    const refused = await refusal('notas.fie', data);
    expect(refused.kind).toBe('type');
    expect(refused.message).toBe('No es un FIE de SILTRA: no empieza por la cabecera ETI de un FIE');
    expect((await refusal('FIE5', 'ETIFIE50 cabecera\nEMP\nETF\n')).message).toBe('No es un FIE de SILTRA: es un FIE5, y solo se leen FIE3 y FIE4');
  });
});
