/**
 * CSV read row by row the way SheetJS reads it for the robots (resources/flows/_lib/workbook.ts
 * readWorkbook -> SheetJS dsv_to_sheet_str), as a stream: the separator from a first 'sep=;' line,
 * else the most frequent of , tab ; | outside quotes in the first 1024 characters (ties: , then tab
 * then ;); a row ends at an unquoted CRLF, LF or lone CR; quotes only quote a field that starts with
 * one, and a field that starts and ends with one loses them ("" inside becoming ").
 *
 * Not csv-parse: it builds a full error object (message, stack trace, JSON copies) for every row whose
 * length differs from the first one's, even when told to allow it, so a CSV with a title line or blank
 * lines took about 50 µs a row (a minute for 1,000,000 rows); and its handling of quotes differs from
 * SheetJS's in corner cases. This is SheetJS's own loop, fed chunk by chunk.
 */

const SEPARATORS = [',', '\t', ';', '|'] as const;

/** SheetJS's guess_sep. */
export function guessSeparator(head: string): string {
  const counts = new Map<string, number>();
  let quoted = false;
  for (const char of head.slice(0, 1024)) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (SEPARATORS as readonly string[]).includes(char)) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  let best: string = ',';
  let bestCount = 0;
  // In order of precedence, so a tie keeps the earlier one.
  for (const separator of SEPARATORS) {
    const count = counts.get(separator) ?? 0;
    if (count > bestCount) {
      best = separator;
      bestCount = count;
    }
  }
  return best;
}

/** A leading 'sep=X' line (SheetJS honours it when the line ends right after X): the separator and how much to skip. */
export function separatorLine(head: string): { separator: string; skip: number } | null {
  if (!head.startsWith('sep=')) return null;
  if (head.charCodeAt(5) === 13 && head.charCodeAt(6) === 10) return { separator: head.charAt(4), skip: 7 };
  if (head.charCodeAt(5) === 13 || head.charCodeAt(5) === 10) return { separator: head.charAt(4), skip: 6 };
  return null;
}

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

/** A field as SheetJS finishes it: a trailing CR dropped, surrounding quotes removed. */
function finishField(raw: string): string {
  const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (text.length > 0 && text.charCodeAt(0) === QUOTE && text.charCodeAt(text.length - 1) === QUOTE) return text.slice(1, -1).replace(/""/g, '"');
  return text;
}

/** SheetJS's DSV loop over text that arrives in chunks; `onRow` gets each row's fields (empty fields as ''). */
export async function readDsvRows(chunks: AsyncIterable<string>, separator: string, onRow: (index: number, fields: string[]) => void): Promise<void> {
  const separatorCode = separator.charCodeAt(0);
  let row = 0;
  let fields: string[] = [];
  let field = '';
  let fieldStarted = false;
  let quotedField = false;
  let inQuotes = false;
  let skipLf = false;

  const endField = () => {
    fields.push(finishField(field));
    field = '';
    fieldStarted = false;
    quotedField = false;
  };
  const endRow = () => {
    endField();
    onRow(row++, fields);
    fields = [];
  };

  for await (const chunk of chunks) {
    let start = 0;
    let index = 0;
    if (skipLf) {
      skipLf = false;
      if (chunk.charCodeAt(0) === LF) start = index = 1;
    }
    for (; index < chunk.length; index += 1) {
      const code = chunk.charCodeAt(index);
      if (!fieldStarted) {
        fieldStarted = true;
        quotedField = code === QUOTE;
      }
      if (code === QUOTE) {
        if (quotedField) inQuotes = !inQuotes;
      } else if (!inQuotes && (code === separatorCode || code === LF || code === CR)) {
        field += chunk.slice(start, index);
        if (code === separatorCode) endField();
        else {
          endRow();
          if (code === CR) {
            if (index + 1 < chunk.length) {
              if (chunk.charCodeAt(index + 1) === LF) index += 1;
            } else skipLf = true;
          }
        }
        start = index + 1;
        continue;
      }
    }
    // A field that runs on into the next chunk keeps what it has, and whether it started with a quote.
    field += chunk.slice(start);
  }
  // Text after the last line break is a last row (SheetJS: a cell when anything is left).
  if (field !== '' || fields.length > 0) {
    if (field !== '') endRow();
    else onRow(row++, fields);
  }
}

/**
 * A CSV's rows from its text in chunks: the separator from a first 'sep=X' line, else guessed from
 * the first 1024 characters (guessSeparator), then the DSV loop. Fields come untrimmed.
 */
export async function readDsvText(chunks: AsyncIterable<string>, onRow: (index: number, fields: string[]) => void): Promise<void> {
  const iterator = chunks[Symbol.asyncIterator]();
  // Enough of the start to decide the separator.
  let head = '';
  let done = false;
  while (head.length < 1030 && !done) {
    const next = await iterator.next();
    if (next.done) done = true;
    else head += next.value;
  }
  const declared = separatorLine(head);
  const separator = declared ? declared.separator : guessSeparator(head);
  if (declared) head = head.slice(declared.skip);
  async function* all(): AsyncGenerator<string> {
    if (head !== '') yield head;
    if (done) return;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  await readDsvRows(all(), separator, onRow);
}
