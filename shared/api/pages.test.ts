import { describe, expect, it } from 'vitest';
import { jsonPages, utf8ByteLength } from './pages.ts';

describe('jsonPages', () => {
  it('keeps each body within the items and the bytes, in order', () => {
    const items = Array.from({ length: 50 }, (_, index) => ({ id: `e${index}`, text: 'ñ'.repeat(index) }));
    const body = (page: typeof items) => ({ runId: 'r', results: page });
    const pages = jsonPages(items, 7, 400, body);
    expect(pages.flat()).toEqual(items);
    for (const page of pages) {
      expect(page.length).toBeLessThanOrEqual(7);
      if (page.length > 1) expect(utf8ByteLength(JSON.stringify(body(page)))).toBeLessThanOrEqual(400);
    }
    // The byte count is exact: a page one item longer would not fit.
    expect(pages.length).toBeGreaterThan(50 / 7);
  });

  it('counts UTF-8 bytes as the server does', () => {
    for (const text of ['abc', 'ñandú', '€', '😀x', '\u0001']) expect(utf8ByteLength(text)).toBe(encodeURIComponent(text).replace(/%[0-9A-F]{2}/g, 'x').length);
  });

  it('answers one empty page for no items, and an item too big alone', () => {
    expect(jsonPages([], 10, 100, (page) => ({ page }))).toEqual([[]]);
    expect(jsonPages(['x'.repeat(200), 'y'], 10, 100, (page) => ({ page }))).toEqual([['x'.repeat(200)], ['y']]);
  });
});
