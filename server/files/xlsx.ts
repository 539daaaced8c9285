import { posix } from 'node:path';
import { Readable } from 'node:stream';
import { unreadable, wrongType } from './errors.ts';
import { decodeOoxmlText, readXml, StopXml } from './xml.ts';
import type { ZipArchive } from './zip.ts';

/**
 * Streaming reads of an .xlsx (Office Open XML spreadsheet) from a ZipArchive: its structure (sheets in
 * order, where each part is), its number formats, its shared strings one by one and a sheet's rows
 * one by one. Nothing here holds a sheet or the string table, so a robot's process can stream rows
 * from it as the upload inspection does. Cell values come raw; formatting them is formats.ts.
 */

export interface SheetRef {
  name: string;
  /** Zip path of the sheet part, or null when the workbook's relationships do not name one. */
  path: string | null;
}

export interface XlsxStructure {
  workbookPath: string;
  sheets: SheetRef[];
  date1904: boolean;
  sharedStringsPath: string | null;
  stylesPath: string | null;
}

/** A cell as written in the sheet: its type attribute, raw value, inline text, style and whether it has a formula. */
export interface RawCell {
  /** 0-based column. */
  column: number;
  /** The t attribute: 's' (shared string), 'str', 'inlineStr', 'b', 'e', 'n', 'd'; null when absent (a number). */
  type: string | null;
  /** Text of <v>, undefined when absent or empty. */
  value: string | undefined;
  /** Text of <is> for inline strings. */
  inlineText: string | undefined;
  /** Index into the styles' cellXfs, undefined when absent. */
  style: number | undefined;
  hasFormula: boolean;
}

export interface RawRow {
  /** 0-based row. */
  index: number;
  cells: RawCell[];
  /** A self-closing <row/>: SheetJS does not count it when guessing the sheet's range. */
  empty: boolean;
}

/** A range such as a <dimension ref="A1:D20">, 0-based inclusive. */
export interface CellRange {
  s: { r: number; c: number };
  e: { r: number; c: number };
}

interface Relationship {
  id: string;
  type: string;
  target: string;
}

async function readRelationships(zip: ZipArchive, path: string): Promise<Relationship[]> {
  if (!zip.has(path)) return [];
  const relationships: Relationship[] = [];
  await readXml(
    Readable.from([await zip.readBytes(path)]),
    {
      open(name, attributes) {
        if (name === 'Relationship' && attributes.Target !== undefined && attributes.TargetMode !== 'External') {
          relationships.push({ id: attributes.Id ?? '', type: attributes.Type ?? '', target: attributes.Target });
        }
      },
    },
    path,
  );
  return relationships;
}

/** A relationship's target as a zip path: relative to the folder of the part that names it, or absolute. */
export function resolvePartPath(sourcePart: string, target: string): string {
  if (target.startsWith('/')) return posix.normalize(target).replace(/^\/+/, '');
  return posix.normalize(posix.join(posix.dirname(sourcePart), target)).replace(/^\/+/, '');
}

function relsPathOf(part: string): string {
  return posix.join(posix.dirname(part), '_rels', `${posix.basename(part)}.rels`);
}

const CONTENT_TYPES_NAMESPACE = 'http://schemas.openxmlformats.org/package/2006/content-types';
const WORKBOOK_CONTENT_TYPES = new Set([
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml',
  'application/vnd.ms-excel.sheet.macroEnabled.main+xml',
  'application/vnd.ms-excel.addin.macroEnabled.main+xml',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.template.main+xml',
  'application/vnd.ms-excel.sheet.binary.macroEnabled.main',
]);
const SHARED_STRINGS_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml';
const STYLES_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml';

/** [Content_Types].xml's overrides, part name (without its leading '/') by content type, in order. */
async function readContentTypes(zip: ZipArchive): Promise<{ namespace: string | undefined; parts: [string, string][] }> {
  let namespace: string | undefined;
  const parts: [string, string][] = [];
  await readXml(
    Readable.from([await zip.readBytes('[Content_Types].xml')]),
    {
      open(name, attributes) {
        if (name === 'Types') namespace = Object.entries(attributes).find(([key]) => key === 'xmlns' || key.startsWith('xmlns:'))?.[1];
        else if (name === 'Override' && attributes.PartName !== undefined && attributes.ContentType !== undefined) {
          parts.push([attributes.ContentType, attributes.PartName.replace(/^\/+/, '')]);
        }
      },
    },
    '[Content_Types].xml',
  );
  return { namespace, parts };
}

/**
 * The workbook's structure, its parts found as SheetJS finds them: the workbook, shared strings and
 * styles from [Content_Types].xml (the workbook falling back to xl/workbook.xml), the sheets from the
 * workbook's relationships. Refuses (type) a zip that is not an OOXML spreadsheet: no
 * [Content_Types].xml or no XML workbook part (an .xlsb, a .docx renamed .xlsx).
 */
export async function readXlsxStructure(zip: ZipArchive): Promise<XlsxStructure> {
  if (!zip.has('[Content_Types].xml')) throw wrongType('No es un libro de Excel (.xlsx): le falta [Content_Types].xml');
  const contentTypes = await readContentTypes(zip);
  if (contentTypes.namespace !== CONTENT_TYPES_NAMESPACE) throw unreadable('El archivo [Content_Types].xml no es el de un documento de Office');
  const partOf = (type: string) => contentTypes.parts.find(([contentType]) => contentType === type)?.[1] ?? null;
  const workbookPath = contentTypes.parts.find(([contentType]) => WORKBOOK_CONTENT_TYPES.has(contentType))?.[1] ?? (zip.has('xl/workbook.xml') ? 'xl/workbook.xml' : null);
  if (workbookPath === null || !workbookPath.toLowerCase().endsWith('.xml')) {
    throw wrongType(`No es un libro de Excel (.xlsx): ${workbookPath === null ? 'le falta la parte xl/workbook.xml' : 'es un libro binario (.xlsb)'}`);
  }
  if (!zip.has(workbookPath)) throw unreadable(`Falta la parte ${workbookPath}`);

  const sheets: { name: string; relationshipId: string }[] = [];
  let date1904 = false;
  await readXml(
    await zip.stream(workbookPath),
    {
      open(name, attributes) {
        if (name === 'sheet') {
          const relationshipId = Object.entries(attributes).find(([key]) => key === 'r:id' || key.endsWith(':id'))?.[1] ?? '';
          sheets.push({ name: attributes.name ?? '', relationshipId });
        } else if (name === 'workbookPr') {
          const value = attributes.date1904;
          date1904 = value === '1' || value === 'true';
        }
      },
    },
    workbookPath,
  );

  const workbookRels = await readRelationships(zip, relsPathOf(workbookPath));
  const byId = new Map(workbookRels.map((relationship) => [relationship.id, relationship]));
  const present = (path: string | null) => (path !== null && zip.has(path) ? path : null);
  return {
    workbookPath,
    date1904,
    sheets: sheets.map((sheet, index) => {
      const relationship = byId.get(sheet.relationshipId);
      const path = relationship ? resolvePartPath(workbookPath, relationship.target) : `xl/worksheets/sheet${index + 1}.xml`;
      return { name: sheet.name, path: present(path) };
    }),
    sharedStringsPath: present(partOf(SHARED_STRINGS_CONTENT_TYPE)),
    stylesPath: present(partOf(STYLES_CONTENT_TYPE)),
  };
}

export interface NumberFormats {
  /** Custom formats by id (<numFmts>). */
  custom: Map<number, string>;
  /** numFmtId of each cellXfs entry, by style index. */
  styleFormats: number[];
}

/** The number format of each cell style (styles.xml numFmts and cellXfs). */
export async function readNumberFormats(zip: ZipArchive, stylesPath: string | null): Promise<NumberFormats> {
  const formats: NumberFormats = { custom: new Map(), styleFormats: [] };
  if (stylesPath === null) return formats;
  let inCellXfs = false;
  await readXml(
    await zip.stream(stylesPath),
    {
      open(name, attributes, selfClosing) {
        if (name === 'numFmt' && attributes.numFmtId !== undefined && attributes.formatCode !== undefined) {
          formats.custom.set(Number.parseInt(attributes.numFmtId, 10), attributes.formatCode);
        } else if (name === 'cellXfs') {
          inCellXfs = !selfClosing;
        } else if (name === 'xf' && inCellXfs) {
          const id = attributes.numFmtId === undefined ? 0 : Number.parseInt(attributes.numFmtId, 10);
          formats.styleFormats.push(Number.isNaN(id) ? 0 : id);
        }
      },
      close(name) {
        if (name === 'cellXfs') inCellXfs = false;
      },
    },
    stylesPath,
  );
  return formats;
}

/**
 * Each shared string in order, its text as SheetJS reads it: the runs' <t> text joined, phonetic
 * runs (<rPh>) left out. `onString` may throw StopXml to stop early.
 */
export async function readSharedStrings(zip: ZipArchive, path: string, onString: (index: number, text: string) => void): Promise<number> {
  let index = 0;
  let inItem = false;
  let phonetic = 0;
  let inText = false;
  let text = '';
  await readXml(
    await zip.stream(path),
    {
      open(name, _attributes, selfClosing) {
        // saxes reports a close for self-closing elements too.
        if (name === 'rPh') phonetic += 1;
        if (selfClosing) {
          if (name === 'si') onString(index++, '');
          return;
        }
        if (name === 'si') {
          inItem = true;
          text = '';
        } else if (name === 't' && inItem && phonetic === 0) inText = true;
      },
      text(chunk) {
        if (inText) text += chunk;
      },
      close(name) {
        if (name === 't') inText = false;
        else if (name === 'rPh') phonetic -= 1;
        else if (name === 'si' && inItem) {
          inItem = false;
          onString(index++, decodeOoxmlText(text));
        }
      },
    },
    path,
  );
  return index;
}

/** 'AB' of 'AB12' -> 27 (0-based); -1 when the reference has no column letters. */
export function columnOfReference(reference: string): number {
  let column = 0;
  let index = 0;
  for (; index < reference.length; index += 1) {
    const code = reference.charCodeAt(index) - 64;
    if (code < 1 || code > 26) break;
    column = column * 26 + code;
  }
  return index === 0 ? -1 : column - 1;
}

/** 'A1:D20' as a range, or null for anything else (SheetJS ignores a dimension without ':'). */
export function parseRange(reference: string): CellRange | null {
  const match = /^([A-Z]+)(\d+):([A-Z]+)(\d+)$/.exec(reference);
  if (!match) return null;
  const [, c1 = '', r1 = '', c2 = '', r2 = ''] = match;
  const range = { s: { r: Number(r1) - 1, c: columnOfReference(c1) }, e: { r: Number(r2) - 1, c: columnOfReference(c2) } };
  if (range.s.r < 0 || range.s.c < 0 || range.s.r > range.e.r || range.s.c > range.e.c) return null;
  return range;
}

export interface SheetHandlers {
  /** The sheet's declared range (<dimension>), before any row. */
  dimension?(range: CellRange | null): void;
  /** Each row in order; may throw StopXml to stop reading. */
  row(row: RawRow): void;
}

/** A sheet's rows one by one, with their cells as written. */
export async function readSheetRows(zip: ZipArchive, path: string, handlers: SheetHandlers): Promise<void> {
  let dimensionSeen = false;
  let inData = false;
  let row: RawRow | null = null;
  let lastRow = -1;
  let lastColumn = -1;
  let cell: RawCell | null = null;
  let capture: 'value' | 'inline' | null = null;
  let inInline = false;
  let phonetic = 0;
  let text = '';

  const announceDimension = (range: CellRange | null) => {
    if (dimensionSeen) return;
    dimensionSeen = true;
    handlers.dimension?.(range);
  };

  await readXml(
    await zip.stream(path),
    {
      open(name, attributes, selfClosing) {
        if (!inData) {
          if (name === 'dimension') announceDimension(attributes.ref === undefined ? null : parseRange(attributes.ref));
          else if (name === 'sheetData') {
            announceDimension(null);
            inData = !selfClosing;
          }
          return;
        }
        switch (name) {
          case 'row': {
            const index = attributes.r === undefined ? lastRow + 1 : Number.parseInt(attributes.r, 10) - 1;
            lastRow = Number.isNaN(index) ? lastRow + 1 : index;
            lastColumn = -1;
            row = { index: lastRow, cells: [], empty: selfClosing };
            if (selfClosing) {
              handlers.row(row);
              row = null;
            }
            break;
          }
          case 'c': {
            const fromReference = attributes.r === undefined ? -1 : columnOfReference(attributes.r);
            lastColumn = fromReference >= 0 ? fromReference : lastColumn + 1;
            const style = attributes.s === undefined ? undefined : Number.parseInt(attributes.s, 10);
            cell = { column: lastColumn, type: attributes.t ?? null, value: undefined, inlineText: undefined, style: Number.isNaN(style) ? undefined : style, hasFormula: false };
            if (selfClosing) {
              row?.cells.push(cell);
              cell = null;
            }
            break;
          }
          case 'v':
            if (cell && !selfClosing) {
              capture = 'value';
              text = '';
            }
            break;
          case 'f':
            if (cell && (!selfClosing || attributes.si !== undefined)) cell.hasFormula = true;
            break;
          case 'is':
            if (cell) {
              inInline = !selfClosing;
              cell.inlineText = '';
            }
            break;
          case 'rPh':
            // saxes reports a close for self-closing elements too.
            phonetic += 1;
            break;
          case 't':
            if (inInline && phonetic === 0 && !selfClosing) {
              capture = 'inline';
              text = '';
            }
            break;
        }
      },
      text(chunk) {
        if (capture !== null) text += chunk;
      },
      close(name) {
        if (!inData) return;
        switch (name) {
          case 'v':
            if (cell && capture === 'value') cell.value = text === '' ? undefined : text;
            capture = null;
            break;
          case 't':
            if (cell && capture === 'inline') cell.inlineText = (cell.inlineText ?? '') + text;
            capture = null;
            break;
          case 'rPh':
            phonetic -= 1;
            break;
          case 'is':
            inInline = false;
            break;
          case 'c':
            if (cell && row) row.cells.push(cell);
            cell = null;
            break;
          case 'row':
            if (row) handlers.row(row);
            row = null;
            break;
          case 'sheetData':
            inData = false;
            throw new StopXml();
        }
      },
    },
    path,
  );
}

/** Refuses a workbook whose sheet references a shared string that is not in the table. */
export function missingSharedString(index: number): Error {
  return unreadable(`La hoja usa el texto compartido n.º ${index}, que no existe en el libro`);
}
