import { columnName, escapeXml, RELATIONSHIPS_NAMESPACE, SPREADSHEET_NAMESPACE } from './sheet-xml.ts';
import { columnOfReference, sheetRowsHandlers, type RawCell, type RawRow } from './sheet-rows.ts';
import type { XmlHandlers } from './xml.ts';
import type { ZipEntryWriter } from './zip-builder.ts';

/**
 * A worksheet part copied row by row into a new .xlsx, made inert and optionally widened: what
 * resources/flows/_lib/workbook.ts does to a whole SheetJS sheet (withAddedColumns + withoutFormulas),
 * done as the XML streams. Formulas are dropped keeping their cached value (with none, or an error, the
 * formula's text becomes the cell's text, formatted as text); a text that looks like a formula gets the
 * text format. New columns go right after given columns: the cells, merges, widths and dimension to
 * their right move along.
 *
 * Kept around the rows: sheetPr, dimension, sheetViews, sheetFormatPr, cols, mergeCells, printOptions,
 * pageMargins, headerFooter. The rest (conditional formats, validations, hyperlinks, drawings, page
 * setup) is dropped: its references would point at moved cells or at parts not copied, and SheetJS's
 * in-memory path drops it too.
 */

const KEPT = new Set(['sheetPr', 'dimension', 'sheetViews', 'sheetFormatPr', 'cols', 'mergeCells', 'printOptions', 'pageMargins', 'headerFooter']);
const ROW_ATTRIBUTES = ['ht', 'customHeight', 'hidden', 's', 'customFormat', 'outlineLevel', 'collapsed', 'thickTop', 'thickBot'];
const FORMULA_START = /^[=+\-@\t\r]/;
const EDGE_SPACE = /^\s|\s$/;
const MARKUP = /[&<>"]/g;
const MARKUP_ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** Text read from the part (its _xHHHH_ escapes still in place) written back: only markup escaped. */
const rawText = (text: string) => (/[&<>"]/.test(text) ? text.replace(MARKUP, (char) => MARKUP_ENTITIES[char] ?? char) : text);

type XmlEvent = { open: string; attributes: Readonly<Record<string, string>>; selfClosing: boolean } | { text: string } | { close: string };

export interface AddedColumn {
  /** 0-based column of the source sheet it follows. */
  after: number;
  /** Width in characters when the sheet sets widths (as withAddedColumns gives its new columns). */
  width: number;
}

export interface RewriteStyles {
  /** cellXfs index of the text format ('@') in the output's styles. */
  textStyle: number;
  /** Whether shared string `index` would be read as a formula (see workbook.ts looksLikeFormula). */
  sharedLooksLikeFormula(index: number): boolean;
}

export class SheetRewriter {
  private readonly head: XmlEvent[] = [];
  private readonly tail: XmlEvent[] = [];
  private depth = 0;
  private section: 'head' | 'data' | 'tail' = 'head';
  private skipping = 0;
  private rowAttributes: Readonly<Record<string, string>> = {};
  private added: readonly AddedColumn[] | null = null;
  private shifts: number[] = [];

  /** The parser events of the source part go to `handlers`; its rows, as read, to `onRow`. */
  readonly handlers: XmlHandlers;

  constructor(
    private readonly entry: ZipEntryWriter,
    private readonly styles: RewriteStyles,
    onRow: (row: RawRow, attributes: Readonly<Record<string, string>>) => void,
  ) {
    const rows = sheetRowsHandlers({ row: (row) => onRow(row, this.rowAttributes) });
    this.handlers = {
      open: (name, attributes, selfClosing) => {
        this.depth += 1;
        if (this.section === 'data') {
          if (name === 'row') this.rowAttributes = attributes;
          rows.open?.(name, attributes, selfClosing);
        } else if (this.depth === 2 && name === 'sheetData') {
          this.section = 'data';
          if (this.added !== null) this.writeHead();
          rows.open?.(name, attributes, selfClosing);
          if (selfClosing) this.section = 'tail';
        } else this.capture(name, { open: name, attributes, selfClosing });
      },
      text: (text) => {
        if (this.section === 'data') rows.text?.(text);
        else if (this.depth >= 2 && this.skipping === 0) (this.section === 'head' ? this.head : this.tail).push({ text });
      },
      close: (name) => {
        this.depth -= 1;
        if (this.section === 'data') {
          if (this.depth === 1 && name === 'sheetData') this.section = 'tail';
          else rows.close?.(name);
        } else if (this.depth >= 1) {
          if (this.skipping > 0) this.skipping -= 1;
          else (this.section === 'head' ? this.head : this.tail).push({ close: name });
        }
      },
    };
  }

  /** Keeps the kept parts' events (depth 2 = a child of <worksheet>), skips the others' subtrees. */
  private capture(name: string, event: XmlEvent): void {
    if (this.depth < 2) return;
    const dropped = this.skipping > 0 || (this.depth === 2 && !KEPT.has(name)) || name === 'extLst';
    if (dropped) this.skipping += 1;
    else (this.section === 'head' ? this.head : this.tail).push(event);
  }

  get started(): boolean {
    return this.added !== null;
  }

  /**
   * The added columns, once known: what comes before the rows is written then (or when the rows begin,
   * if that is later); rows may be written after.
   */
  start(added: readonly AddedColumn[]): void {
    this.added = [...added].sort((a, b) => a.after - b.after);
    if (this.section !== 'head') this.writeHead();
  }

  private headWritten = false;

  private writeHead(): void {
    if (this.headWritten) return;
    this.headWritten = true;
    this.entry.write(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${SPREADSHEET_NAMESPACE}" xmlns:r="${RELATIONSHIPS_NAMESPACE}">`);
    this.writeEvents(this.head);
    this.head.length = 0;
    this.entry.write('<sheetData>');
  }

  /** Columns inserted before source column `column`. */
  private shiftOf(column: number): number {
    let shift = this.shifts[column];
    if (shift === undefined) {
      shift = (this.added ?? []).filter((addition) => addition.after < column).length;
      this.shifts[column] = shift;
    }
    return shift;
  }

  private moved(reference: string): string {
    const column = columnOfReference(reference);
    if (column < 0) return reference;
    const letters = columnName(column).length;
    return columnName(column + this.shiftOf(column)) + reference.slice(letters);
  }

  /** One row of the source, with the texts of the added columns (null: none, as for a row outside the table). */
  writeRow(row: RawRow, attributes: Readonly<Record<string, string>>, added: readonly (string | undefined)[] | null): void {
    const number = row.index + 1;
    let xml = `<row r="${number}"`;
    for (const name of ROW_ATTRIBUTES) {
      const value = attributes[name];
      if (value !== undefined) xml += ` ${name}="${rawText(value)}"`;
    }
    xml += '>';
    const additions = this.added ?? [];
    let next = 0;
    const addUpTo = (column: number) => {
      for (; next < additions.length && (additions[next]?.after ?? 0) < column; next += 1) {
        const text = added?.[next];
        const at = (additions[next]?.after ?? 0) + next + 1;
        // xml:space only where it matters: a million rows of 'OK' are 21 bytes a cell fewer to deflate.
        const space = EDGE_SPACE.test(text ?? '') ? ' xml:space="preserve"' : '';
        if (text !== undefined && text !== '') xml += `<c r="${columnName(at)}${number}" t="inlineStr"><is><t${space}>${escapeXml(text)}</t></is></c>`;
      }
    };
    for (const cell of row.cells) {
      addUpTo(cell.column);
      xml += this.cellXml(cell, `${columnName(cell.column + this.shiftOf(cell.column))}${number}`);
    }
    addUpTo(Number.POSITIVE_INFINITY);
    this.entry.write(`${xml}</row>`);
  }

  private cellXml(cell: RawCell, reference: string): string {
    const style = cell.style === undefined ? '' : ` s="${cell.style}"`;
    const type = cell.type;
    if (cell.hasFormula && (type === 'e' || cell.value === undefined)) {
      return this.text(reference, `=${(cell.formula ?? '').replace(/^=/, '')}`, true);
    }
    switch (type) {
      case 's': {
        if (cell.value === undefined) return `<c r="${reference}"${style} t="s"/>`;
        const text = this.styles.sharedLooksLikeFormula(Number.parseInt(cell.value, 10));
        return `<c r="${reference}"${text ? ` s="${this.styles.textStyle}"` : style} t="s"><v>${cell.value}</v></c>`;
      }
      case 'str':
      case 'inlineStr': {
        const value = (type === 'str' ? cell.value : cell.inlineText) ?? '';
        const formulaLike = FORMULA_START.test(value);
        return `<c r="${reference}"${formulaLike ? ` s="${this.styles.textStyle}"` : style} t="inlineStr"><is><t xml:space="preserve">${rawText(value)}</t></is></c>`;
      }
      default: {
        const kind = type === null || type === 'n' ? '' : ` t="${rawText(type)}"`;
        if (cell.value === undefined) return `<c r="${reference}"${style}${kind}/>`;
        return `<c r="${reference}"${style}${kind}><v>${rawText(cell.value)}</v></c>`;
      }
    }
  }

  /** A text cell (formatted as text when it would otherwise be read as a formula). */
  private text(reference: string, text: string, asText: boolean): string {
    const style = asText || FORMULA_START.test(text) ? ` s="${this.styles.textStyle}"` : '';
    return `<c r="${reference}"${style} t="inlineStr"><is><t xml:space="preserve">${rawText(text)}</t></is></c>`;
  }

  /** Writes what follows the rows and ends the part. */
  finish(): void {
    if (!this.started) this.start([]);
    this.writeHead();
    this.entry.write('</sheetData>');
    this.writeEvents(this.tail);
    this.entry.write('</worksheet>');
    this.entry.end();
  }

  private writeEvents(events: readonly XmlEvent[]): void {
    let selfClosed = false;
    let columns: { min: number; xml: string }[] | null = null;
    for (const event of events) {
      if ('open' in event) {
        const { open: name, attributes, selfClosing } = event;
        if (name === 'cols') columns = [];
        if (name === 'col' && columns !== null) {
          columns.push(...this.columnPieces(attributes));
          selfClosed = selfClosing;
          continue;
        }
        this.entry.write(`<${name}${this.attributesXml(name, attributes)}${selfClosing ? '/>' : '>'}`);
        selfClosed = selfClosing;
      } else if ('text' in event) this.entry.write(rawText(event.text));
      else {
        if (event.close === 'cols' && columns !== null) {
          for (const addition of this.added ?? []) {
            const at = addition.after + this.shiftOf(addition.after) + 2;
            columns.push({ min: at, xml: `<col min="${at}" max="${at}" width="${addition.width}" customWidth="1"/>` });
          }
          this.entry.write(columns.sort((a, b) => a.min - b.min).map((piece) => piece.xml).join(''));
          columns = null;
        }
        if (selfClosed) selfClosed = false;
        else if (event.close !== 'col') this.entry.write(`</${event.close}>`);
      }
    }
  }

  private attributesXml(name: string, attributes: Readonly<Record<string, string>>): string {
    let xml = '';
    for (const [key, value] of Object.entries(attributes)) {
      if (key.includes(':') || key === 'xmlns') continue;
      let written = value;
      if ((name === 'mergeCell' && key === 'ref') || (name === 'dimension' && key === 'ref')) written = this.movedRange(value, name === 'dimension');
      xml += ` ${key}="${rawText(written)}"`;
    }
    return xml;
  }

  /** A range moved along; a dimension also grows by the columns added inside it. */
  private movedRange(range: string, grows: boolean): string {
    const [start = '', end] = range.split(':');
    if (end === undefined) return this.moved(start);
    if (!grows) return `${this.moved(start)}:${this.moved(end)}`;
    const last = columnOfReference(end);
    const inside = (this.added ?? []).filter((addition) => addition.after <= last).length;
    return `${this.moved(start)}:${columnName(last + inside)}${end.slice(columnName(last).length)}`;
  }

  /** A <col min max> range split where columns were inserted, each piece moved along. */
  private columnPieces(attributes: Readonly<Record<string, string>>): { min: number; xml: string }[] {
    const min = Number.parseInt(attributes.min ?? '', 10);
    const max = Number.parseInt(attributes.max ?? '', 10);
    if (!(min >= 1 && max >= min)) return [];
    const rest = Object.entries(attributes)
      .filter(([key]) => key !== 'min' && key !== 'max' && !key.includes(':'))
      .map(([key, value]) => ` ${key}="${rawText(value)}"`)
      .join('');
    const pieces: { min: number; xml: string }[] = [];
    let from = min;
    for (let column = min; column <= max; column += 1) {
      const last = column === max || this.shiftOf(column) !== this.shiftOf(column - 1);
      if (last) {
        const shift = this.shiftOf(from - 1);
        pieces.push({ min: from + shift, xml: `<col min="${from + shift}" max="${column + shift}"${rest}/>` });
        from = column + 1;
      }
    }
    return pieces;
  }
}
