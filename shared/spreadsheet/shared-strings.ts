import { strFromU8, strToU8 } from 'fflate';

/**
 * A workbook's shared strings held compactly while its sheet streams (resources/flows/_lib/workbook-stream.ts):
 * every text as UTF-8 in one byte buffer, with its end offset and two flags, decoded only when a cell
 * asks for it. A million-row sheet names three million unique texts (NIF, NAF, IBAN); as JS strings
 * they cost about 90 bytes each, and one longer than 12 characters is a slice that keeps the whole
 * decoded XML chunk it came from alive (V8's sliced strings): 280 MB of heap where this holds 60.
 */

const BLANK = 1;
const FORMULA_LIKE = 2;

export class SharedStringTable {
  private bytes = new Uint8Array(1 << 20);
  private ends = new Uint32Array(1 << 16);
  private flags = new Uint8Array(1 << 16);
  private used = 0;
  private size = 0;

  get length(): number {
    return this.size;
  }

  private has(index: number): boolean {
    return Number.isInteger(index) && index >= 0 && index < this.size;
  }

  add(text: string): void {
    if (this.size === this.ends.length) {
      this.ends = grown(this.ends, this.ends.length * 2);
      this.flags = grown(this.flags, this.flags.length * 2);
    }
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    if (this.used + text.length * 3 > this.bytes.length) this.bytes = grown(this.bytes, Math.max(this.bytes.length * 2, this.used + text.length * 3));
    this.used = this.encode(text, this.used);
    this.ends[this.size] = this.used;
    this.flags[this.size] = (text.trim() === '' ? BLANK : 0) | (/^[=+\-@\t\r]/.test(text) ? FORMULA_LIKE : 0);
    this.size += 1;
  }

  /** The text at `index`; '' past the end (a cell naming a string the table lacks, as SheetJS reads it). */
  text(index: number): string {
    if (!this.has(index)) return '';
    const start = index === 0 ? 0 : (this.ends[index - 1] ?? 0);
    const end = this.ends[index] ?? start;
    // Short ASCII texts (identifiers, most names) without a decoder call.
    if (end - start <= 32) {
      let text = '';
      for (let at = start; at < end; at += 1) {
        const byte = this.bytes[at] ?? 0;
        if (byte >= 0x80) return strFromU8(this.bytes.subarray(start, end));
        text += String.fromCharCode(byte);
      }
      return text;
    }
    return strFromU8(this.bytes.subarray(start, end));
  }

  /** Writes the text's UTF-8 at `at` (room for 3 bytes per unit is there); gives where it ends. */
  private encode(text: string, at: number): number {
    let end = at;
    for (let unit = 0; unit < text.length; unit += 1) {
      const code = text.charCodeAt(unit);
      if (code >= 0x80) {
        const encoded = strToU8(text);
        this.bytes.set(encoded, at);
        return at + encoded.length;
      }
      this.bytes[end++] = code;
    }
    return end;
  }

  /** Whether the text is empty or only spaces ('' past the end is). */
  blank(index: number): boolean {
    return !this.has(index) || ((this.flags[index] ?? 0) & BLANK) !== 0;
  }

  /** Whether the text starts as a formula would (=, +, -, @, a tab or a carriage return). */
  looksLikeFormula(index: number): boolean {
    return this.has(index) && ((this.flags[index] ?? 0) & FORMULA_LIKE) !== 0;
  }
}

function grown<T extends Uint8Array | Uint32Array>(array: T, length: number): T {
  const next = new (array.constructor as new (length: number) => T)(length);
  next.set(array);
  return next;
}
