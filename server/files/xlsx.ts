import { posix } from 'node:path';
import { Readable } from 'node:stream';
import { unreadable, wrongType } from './errors.ts';
import { numberFormatsHandlers, sharedStringsHandlers, sheetRowsHandlers, type NumberFormats, type SheetHandlers } from '#shared/spreadsheet/sheet-rows.ts';
import { readXml } from './xml.ts';
import type { ZipArchive } from './zip.ts';

/**
 * Streaming reads of an .xlsx (Office Open XML spreadsheet) from a ZipArchive: its structure (sheets in
 * order, where each part is), its number formats, its shared strings one by one and a sheet's rows
 * one by one. Nothing here holds a sheet or the string table. The handlers that read the parts are
 * shared/spreadsheet/sheet-rows.ts (the robots read the same XML from bytes); this feeds them from yauzl.
 */

export { columnOfReference, parseRange, type CellRange, type NumberFormats, type RawCell, type RawRow, type SheetHandlers } from '#shared/spreadsheet/sheet-rows.ts';

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

/** The number format of each cell style (styles.xml numFmts and cellXfs). */
export async function readNumberFormats(zip: ZipArchive, stylesPath: string | null): Promise<NumberFormats> {
  const formats: NumberFormats = { custom: new Map(), styleFormats: [] };
  if (stylesPath === null) return formats;
  await readXml(await zip.stream(stylesPath), numberFormatsHandlers(formats), stylesPath);
  return formats;
}

/**
 * Each shared string in order, its text as SheetJS reads it: the runs' <t> text joined, phonetic
 * runs (<rPh>) left out. `onString` may throw StopXml to stop early.
 */
export async function readSharedStrings(zip: ZipArchive, path: string, onString: (index: number, text: string) => void): Promise<number> {
  const handlers = sharedStringsHandlers(onString);
  await readXml(await zip.stream(path), handlers, path);
  return handlers.count();
}

/** A sheet's rows one by one, with their cells as written. */
export async function readSheetRows(zip: ZipArchive, path: string, handlers: SheetHandlers): Promise<void> {
  await readXml(await zip.stream(path), sheetRowsHandlers(handlers), path);
}

/** Refuses a workbook whose sheet references a shared string that is not in the table. */
export function missingSharedString(index: number): Error {
  return unreadable(`La hoja usa el texto compartido n.º ${index}, que no existe en el libro`);
}
