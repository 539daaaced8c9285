import { describe, expect, it } from 'vitest';
import { SharedStringTable } from './shared-strings.ts';

describe('SharedStringTable', () => {
  it('gives back every text as added, ASCII or not, short or long, past its first buffers', () => {
    const table = new SharedStringTable();
    const texts: string[] = [];
    for (let index = 0; index < 100_000; index += 1) {
      const text = index % 7 === 0 ? `Íñigo Núñez ${index} 😀` : index % 11 === 0 ? 'x'.repeat(40 + (index % 50)) : `${10_000_000 + index}Z`;
      texts.push(text);
      table.add(text);
    }
    expect(table.length).toBe(texts.length);
    for (const [index, text] of texts.entries()) if (table.text(index) !== text) expect.fail(`${index}: ${table.text(index)} ≠ ${text}`);
  });

  it('answers blank and formula-like from flags, and an index it lacks as an empty text', () => {
    const table = new SharedStringTable();
    for (const text of ['', '   ', '=SUMA(A1)', '-5 días', '@x', 'plain', '\tTab']) table.add(text);
    expect([0, 1, 2, 3, 4, 5, 6].map((index) => table.blank(index))).toEqual([true, true, false, false, false, false, false]);
    expect([0, 1, 2, 3, 4, 5, 6].map((index) => table.looksLikeFormula(index))).toEqual([false, false, true, true, true, false, true]);
    for (const missing of [7, -1, 1.5, Number.NaN]) {
      expect(table.text(missing)).toBe('');
      expect(table.blank(missing)).toBe(true);
      expect(table.looksLikeFormula(missing)).toBe(false);
    }
  });
});
