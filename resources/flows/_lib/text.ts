import { decodeLatin1 } from '#shared/fie/latin1.ts';

// Robots see neither DOM nor Node types; both runtimes (worker thread, desktop) have TextDecoder.
declare const TextDecoder: new (label: string, options?: { fatal?: boolean }) => { decode(input?: Uint8Array, options?: { stream?: boolean }): string };

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The text of a CSV or text file. Spanish spreadsheets save CSV either as UTF-8 (with or without BOM)
 * or as Windows-1252/Latin-1 ('Exportar CSV' in Excel on Windows); a file that is not valid UTF-8 is
 * read as Latin-1, so 'Muñoz' comes out right either way.
 */
export function decodeText(bytes: Uint8Array): string {
  try {
    return strictUtf8.decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return decodeLatin1(bytes);
  }
}

/** Whether the chunks are valid UTF-8 as a whole (a character may be split between two chunks). */
async function isUtf8(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<boolean> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of chunks) decoder.decode(chunk, { stream: true });
    decoder.decode();
    return true;
  } catch {
    return false;
  }
}

/**
 * decodeText over a file read in chunks, for files too big to hold as one string: one pass checks
 * whether the whole file is UTF-8 (decodeText's rule), the second yields its text chunk by chunk.
 * `open` gives the file's chunks from the start, once per pass.
 */
export async function* decodeTextChunks(open: () => AsyncIterable<Uint8Array> | Iterable<Uint8Array>): AsyncGenerator<string> {
  const utf8 = await isUtf8(open());
  const decoder = utf8 ? new TextDecoder('utf-8') : null;
  let first = true;
  for await (const chunk of open()) {
    let text = decoder ? decoder.decode(chunk, { stream: true }) : decodeLatin1(chunk);
    if (first && text !== '') {
      text = text.replace(/^\uFEFF/, '');
      first = false;
    }
    if (text !== '') yield text;
  }
  const rest = decoder?.decode() ?? '';
  if (rest !== '') yield rest;
}

export { headerKey } from '#shared/flows/columns.ts';

/** 'Plantilla trabajadores.csv' -> 'Plantilla trabajadores'. */
export function baseName(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(0, dot) : fileName;
}
