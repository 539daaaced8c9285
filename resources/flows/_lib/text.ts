import { decodeLatin1 } from '#shared/fie/latin1.ts';

// Robots see neither DOM nor Node types; both runtimes (worker thread, desktop) have TextDecoder.
declare const TextDecoder: new (label: string, options?: { fatal?: boolean }) => { decode(input: Uint8Array): string };

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

export { headerKey } from '#shared/flows/columns.ts';

/** 'Plantilla trabajadores.csv' -> 'Plantilla trabajadores'. */
export function baseName(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(0, dot) : fileName;
}
