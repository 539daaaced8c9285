import { xmlFeed, type XmlHandlers } from './xml.ts';
import type { ZipReader } from './zip-reader.ts';

/*
 * Where an .xlsx keeps its parts, found through the package's relationships (as SheetJS and the
 * server's upload inspection, server/files/xlsx.ts, find them): the sheets in workbook order with their
 * paths, the 1904 date system, the shared strings, styles and theme. Read by the streaming robots
 * (resources/flows/_lib/workbook-stream.ts) and the streamed FIE spreadsheet (shared/fie/xlsx-stream.ts).
 */

export interface StructureSheet {
  name: string;
  path: string | null;
  state: string | undefined;
}

export interface Structure {
  sheets: StructureSheet[];
  date1904: boolean;
  sharedStringsPath: string | null;
  stylesPath: string | null;
  themePath: string | null;
}

function parse(text: string, handlers: XmlHandlers): void {
  const feed = xmlFeed(handlers);
  feed.write(text);
  feed.close();
}

/** A relationship's target as a zip path, relative to the folder of `source` (or absolute). */
function resolve(source: string, target: string): string {
  const parts = target.startsWith('/') ? [] : source.split('/').slice(0, -1);
  for (const piece of target.split('/')) {
    if (piece === '..') parts.pop();
    else if (piece !== '.' && piece !== '') parts.push(piece);
  }
  return parts.join('/');
}

async function relationships(zip: ZipReader, part: string): Promise<{ id: string; type: string; target: string }[]> {
  const slash = part.lastIndexOf('/');
  const path = `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
  if (!zip.has(path)) return [];
  const found: { id: string; type: string; target: string }[] = [];
  parse(await zip.text(path), {
    open(name, attributes) {
      if (name === 'Relationship' && attributes.Target !== undefined && attributes.TargetMode !== 'External') {
        found.push({ id: attributes.Id ?? '', type: attributes.Type ?? '', target: resolve(part, attributes.Target) });
      }
    },
  });
  return found;
}

/** The package's parts; throws when it has no SpreadsheetML workbook part (an .xlsb, a zip of something else). */
export async function readStructure(zip: ZipReader): Promise<Structure> {
  const root = await relationships(zip, '');
  const workbookPath = root.find((relationship) => relationship.type.endsWith('/officeDocument'))?.target ?? 'xl/workbook.xml';
  if (!workbookPath.toLowerCase().endsWith('.xml') || !zip.has(workbookPath)) throw new Error('No es un libro .xlsx');
  const listed: { name: string; id: string; state: string | undefined }[] = [];
  let date1904 = false;
  parse(await zip.text(workbookPath), {
    open(name, attributes) {
      if (name === 'sheet') {
        const id = Object.entries(attributes).find(([key]) => key === 'r:id' || key.endsWith(':id'))?.[1] ?? '';
        listed.push({ name: attributes.name ?? '', id, state: attributes.state });
      } else if (name === 'workbookPr') date1904 = attributes.date1904 === '1' || attributes.date1904 === 'true';
    },
  });
  const rels = await relationships(zip, workbookPath);
  const byId = new Map(rels.map((relationship) => [relationship.id, relationship]));
  const present = (path: string | undefined) => (path !== undefined && zip.has(path) ? path : null);
  const ofType = (suffix: string) => present(rels.find((relationship) => relationship.type.endsWith(suffix))?.target);
  return {
    date1904,
    sheets: listed.map(({ name, id, state }) => {
      const relationship = byId.get(id);
      return { name, state, path: relationship?.type.endsWith('/worksheet') ? present(relationship.target) : null };
    }),
    sharedStringsPath: ofType('/sharedStrings'),
    stylesPath: ofType('/styles'),
    themePath: ofType('/theme'),
  };
}
