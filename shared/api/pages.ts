/**
 * Pages of a list sent as JSON bodies (issue 39, 2): the server takes bodies of a few hundred KB, so a
 * long list goes in several requests, each within a number of items and a number of bytes.
 */

/** Bytes of `text` in UTF-8. */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      bytes += 4;
      index += 1;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * `items` split in order into pages of at most `maxItems`, each of whose body (`body(page)`, one JSON
 * array holding the page) is at most `maxBytes` as JSON. An item too big for a page of its own goes alone
 * (the server answers it 413). No items: one empty page.
 */
export function jsonPages<T>(items: readonly T[], maxItems: number, maxBytes: number, body: (page: T[]) => unknown): T[][] {
  if (items.length === 0) return [[]];
  const overhead = utf8ByteLength(JSON.stringify(body([])));
  const pages: T[][] = [];
  let page: T[] = [];
  let bytes = overhead;
  for (const item of items) {
    const size = utf8ByteLength(JSON.stringify(item) ?? 'null');
    const extra = page.length > 0 ? size + 1 : size;
    if (page.length > 0 && (page.length >= maxItems || bytes + extra > maxBytes)) {
      pages.push(page);
      page = [];
      bytes = overhead;
    }
    bytes += page.length > 0 ? size + 1 : size;
    page.push(item);
  }
  pages.push(page);
  return pages;
}
