/**
 * Character tests the FIE reader runs on char codes instead of regexes and String.prototype.trim, so a
 * field can be judged blank, trimmed and normalised without making a string of it first.
 */

/**
 * White space as JavaScript sees it (String.prototype.trim, RegExp \s): ECMA-262's WhiteSpace and
 * LineTerminator code points, all in the BMP. chars.test.ts checks it against \s for every code unit.
 */
export function isJsSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** True when text[start, end) is empty or only white space (what `slice(...).trim() === ''` says). */
export function isBlank(text: string, start: number, end: number): boolean {
  for (let index = start; index < end; index += 1) if (!isJsSpace(text.charCodeAt(index))) return false;
  return true;
}

const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;

export function isDigit(code: number): boolean {
  return code >= DIGIT_0 && code <= DIGIT_9;
}

/** The value of text[start, end) when it is all ASCII digits (at least one), else -1. Exact up to 15 digits. */
export function digitsValue(text: string, start: number, end: number): number {
  if (end <= start || end - start > 15) return -1;
  let value = 0;
  for (let index = start; index < end; index += 1) {
    const code = text.charCodeAt(index);
    if (code < DIGIT_0 || code > DIGIT_9) return -1;
    value = value * 10 + (code - DIGIT_0);
  }
  return value;
}
