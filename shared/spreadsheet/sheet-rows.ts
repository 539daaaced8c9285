import { decodeOoxmlText, StopXml, type XmlHandlers } from './xml.ts';

/**
 * SpreadsheetML read as a stream of parser events (xml.ts), whatever feeds the parser: the server's
 * upload inspection (yauzl + Node streams) and the robots (fflate over the upload's bytes) share these
 * handlers. Cell values come raw; cell-format.ts turns them into the text SheetJS would show.
 */

/** A cell as written in the sheet: its type attribute, raw value, inline text, style and formula. */
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
  /** The text of <f> when it has one (a shared formula's followers have none). */
  formula?: string;
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

export interface NumberFormats {
  /** Custom formats by id (<numFmts>). */
  custom: Map<number, string>;
  /** numFmtId of each cellXfs entry, by style index. */
  styleFormats: number[];
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

/** Handlers that fill `formats` from a styles part (numFmts and cellXfs). */
export function numberFormatsHandlers(formats: NumberFormats): XmlHandlers {
  let inCellXfs = false;
  return {
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
  };
}

/**
 * Handlers that give each shared string in order, its text as SheetJS reads it: the runs' <t> text
 * joined, phonetic runs (<rPh>) left out. `onString` may throw StopXml to stop early. `count()` is
 * how many were read.
 */
export function sharedStringsHandlers(onString: (index: number, text: string) => void): XmlHandlers & { count(): number } {
  let index = 0;
  let inItem = false;
  let phonetic = 0;
  let inText = false;
  let text = '';
  return {
    count: () => index,
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
  };
}

export interface SheetHandlers {
  /** The sheet's declared range (<dimension>), before any row. */
  dimension?(range: CellRange | null): void;
  /** Each row in order; may throw StopXml to stop reading. */
  row(row: RawRow): void;
}

/**
 * Handlers that give a sheet's rows one by one, with their cells as written. Reading stops (StopXml)
 * at </sheetData>: what follows (merges, page setup) is not rows.
 */
export function sheetRowsHandlers(handlers: SheetHandlers): XmlHandlers {
  let dimensionSeen = false;
  let inData = false;
  let row: RawRow | null = null;
  let lastRow = -1;
  let lastColumn = -1;
  let cell: RawCell | null = null;
  let capture: 'value' | 'inline' | 'formula' | null = null;
  let inInline = false;
  let phonetic = 0;
  let text = '';

  const announceDimension = (range: CellRange | null) => {
    if (dimensionSeen) return;
    dimensionSeen = true;
    handlers.dimension?.(range);
  };

  return {
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
          if (cell && !selfClosing) {
            capture = 'formula';
            text = '';
          }
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
        case 'f':
          if (cell && capture === 'formula' && text !== '') cell.formula = text;
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
  };
}
