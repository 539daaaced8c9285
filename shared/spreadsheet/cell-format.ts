import * as XLSX from 'xlsx';
import type { NumberFormats, RawCell } from './sheet-rows.ts';

/**
 * A streamed .xlsx cell's text (the server's upload inspection and the streaming robots alike) as
 * resources/flows/_lib/workbook.ts cellText shows it after SheetJS read the file (cellNF, cellStyles and so sheetStubs on): the value formatted with the cell's number
 * format by SheetJS's own SSF, trimmed. A cell without a value is a stub and shows nothing; a formula
 * without a cached value is 0.
 */

type Value = { kind: 'number'; value: number } | { kind: 'text'; value: string } | { kind: 'bool'; value: boolean } | { kind: 'error'; text: string } | { kind: 'blank' };

/** How a format's output can be blank: never, always, exactly when the text is, or only by trying the value. */
type BlankPolicy = 'never' | 'always' | 'like-text' | 'exact';

const NUMBER_SAMPLES = [0, 1, -1, 0.5, -0.5, 45_000.25, 1e10, -1e10];

export class CellFormatter {
  private readonly numberPolicies = new Map<number, BlankPolicy>();
  private readonly textPolicies = new Map<number, BlankPolicy>();
  private readonly table = XLSX.SSF.get_table() as Record<number, string | undefined>;

  constructor(
    private readonly formats: NumberFormats,
    private readonly date1904: boolean,
  ) {}

  /** The numFmtId of a cell (0, General, without a style). */
  formatIdOf(cell: RawCell): number {
    return cell.style === undefined ? 0 : (this.formats.styleFormats[cell.style] ?? 0);
  }

  private formatString(id: number): string {
    return this.formats.custom.get(id) ?? this.table[id] ?? 'General';
  }

  private format(id: number, value: number | string | boolean): string | null {
    try {
      return String(XLSX.SSF.format(this.formatString(id), value, { date1904: this.date1904 }));
    } catch {
      return null;
    }
  }

  /** The cell's value as SheetJS types it; shared strings come from `sharedText`. */
  private valueOf(cell: RawCell, sharedText: (index: number) => string): Value {
    switch (cell.type) {
      case 's':
        return cell.value === undefined ? { kind: 'blank' } : { kind: 'text', value: sharedText(Number.parseInt(cell.value, 10)) };
      case 'str':
        return { kind: 'text', value: decodeText(cell.value ?? '') };
      case 'inlineStr':
        return { kind: 'text', value: decodeText(cell.inlineText ?? '') };
      case 'b':
        return { kind: 'bool', value: cell.value === '1' || cell.value === 'true' };
      case 'e':
        return cell.value === undefined ? { kind: 'blank' } : { kind: 'error', text: cell.value };
      case 'd':
        // An ISO date kept as text: SheetJS turns it into a serial number first. Rare; shown as written.
        return cell.value === undefined ? { kind: 'blank' } : { kind: 'text', value: cell.value };
      case null:
      case 'n':
        if (cell.value === undefined) return cell.hasFormula && cell.type === null ? { kind: 'number', value: 0 } : { kind: 'blank' };
        return { kind: 'number', value: Number.parseFloat(cell.value) };
      default:
        return cell.value === undefined ? { kind: 'blank' } : { kind: 'text', value: cell.value };
    }
  }

  /** The text the cell shows, trimmed (what the header and the robots see). */
  text(cell: RawCell, sharedText: (index: number) => string): string {
    const value = this.valueOf(cell, sharedText);
    const id = this.formatIdOf(cell);
    switch (value.kind) {
      case 'blank':
        return '';
      case 'error':
        return value.text.trim();
      case 'number':
        return (id === 0 ? generalNumber(value.value) : (this.format(id, value.value) ?? String(value.value))).trim();
      case 'bool':
        return (id === 0 ? (value.value ? 'TRUE' : 'FALSE') : (this.format(id, value.value) ?? String(value.value))).trim();
      case 'text':
        return (id === 0 ? value.value : (this.format(id, value.value) ?? value.value)).trim();
    }
  }

  /**
   * Whether the cell shows nothing, without the text of its shared string when that can be helped:
   * `sharedBlank` tells a shared string's blankness from a bitmap of the table.
   */
  isBlank(cell: RawCell, sharedBlank: (index: number) => boolean, sharedText: (index: number) => string): boolean {
    const id = this.formatIdOf(cell);
    switch (cell.type) {
      case 's': {
        if (cell.value === undefined) return true;
        const index = Number.parseInt(cell.value, 10);
        const policy = id === 0 ? 'like-text' : this.textPolicy(id);
        if (policy === 'exact') return this.text(cell, sharedText) === '';
        return policy === 'always' || (policy === 'like-text' && sharedBlank(index));
      }
      case 'str':
      case 'inlineStr': {
        const policy = id === 0 ? 'like-text' : this.textPolicy(id);
        if (policy === 'exact') return this.text(cell, sharedText) === '';
        const raw = cell.type === 'str' ? (cell.value ?? '') : (cell.inlineText ?? '');
        return policy === 'always' || (policy === 'like-text' && decodeText(raw).trim() === '');
      }
      case null:
      case 'n': {
        if (this.valueOf(cell, sharedText).kind === 'blank') return true;
        if (id === 0) return false;
        const policy = this.numberPolicy(id);
        return policy === 'always' || (policy === 'exact' && this.text(cell, sharedText) === '');
      }
      case 'b':
        return id !== 0 && this.text(cell, sharedText) === '';
      default:
        return this.text(cell, sharedText) === '';
    }
  }

  private numberPolicy(id: number): BlankPolicy {
    let policy = this.numberPolicies.get(id);
    if (policy === undefined) {
      const blanks = NUMBER_SAMPLES.map((sample) => (this.format(id, sample) ?? String(sample)).trim() === '');
      policy = blanks.every(Boolean) ? 'always' : blanks.some(Boolean) ? 'exact' : 'never';
      this.numberPolicies.set(id, policy);
    }
    return policy;
  }

  private textPolicy(id: number): BlankPolicy {
    let policy = this.textPolicies.get(id);
    if (policy === undefined) {
      const filledBlank = (this.format(id, 'a') ?? 'a').trim() === '';
      const emptyBlank = (this.format(id, ' ') ?? ' ').trim() === '';
      policy = filledBlank && emptyBlank ? 'always' : !filledBlank && !emptyBlank ? 'never' : !filledBlank && emptyBlank ? 'like-text' : 'exact';
      this.textPolicies.set(id, policy);
    }
    return policy;
  }
}

/**
 * SheetJS's General for a number: integers of up to 11 digits as they are, others in at most 11
 * significant characters (a 12-digit NAF typed as a number shows '2.81235E+11', as in Excel).
 */
function generalNumber(value: number): string {
  return Number.isInteger(value) && Math.abs(value) < 1e11 ? value.toString(10) : String(XLSX.SSF.format('General', value));
}

function decodeText(text: string): string {
  return text.includes('_x') || text.includes('\r\n') ? text.replace(/_x([\da-fA-F]{4})_/g, (_m, code: string) => String.fromCharCode(parseInt(code, 16))).replace(/\r\n/g, '\n') : text;
}
