import { FieLineReader } from './reader.ts';
import type { FieDiagnostic, FieDocument, FieEntry } from './types.ts';

/** Splits on LF or CRLF; a lone CR inside a line is left alone. */
export function splitFieLines(text: string): string[] {
  return text.split(/\r?\n/);
}

/**
 * Feeds every line of `text` to the reader, cut as splitFieLines cuts them, without making the array of
 * lines: a leading BOM is skipped, each LF ends a line and a CR just before it is dropped.
 */
export function readFieLines(reader: FieLineReader, text: string): void {
  let position = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (;;) {
    const newline = text.indexOf('\n', position);
    if (newline === -1) break;
    const end = newline > position && text.charCodeAt(newline - 1) === 0x0d ? newline - 1 : newline;
    reader.line(text, position, end);
    position = newline + 1;
  }
  reader.line(text, position, text.length);
}

/**
 * Decodes the text form of a FIE (what SILTRA downloads): an ETI header naming FIE3 or FIE4, blocks
 * of segment lines each starting at EMP (one entry per block), and an ETF trailer where decoding stops.
 * Never throws: a file it cannot use comes back ignored with a Spanish reason. The rules live in
 * reader.ts (FieLineReader), which the streaming decoder (stream.ts) shares.
 */
export function decodeFieText(text: string): FieDocument {
  const entries: FieEntry[] = [];
  const diagnostics: FieDiagnostic[] = [];
  const reader = new FieLineReader({ entry: (entry) => void entries.push(entry.toEntry()), diagnostic: (diagnostic) => void diagnostics.push(diagnostic) });
  readFieLines(reader, text);
  reader.finish();
  const { header } = reader;
  if (header.status !== 'read') {
    const reason = header.status === 'ignored' ? header.reason : 'El archivo no empieza por la cabecera ETI de un FIE';
    return { format: 'text', version: null, ignored: true, reason, registryDate: null, entries: [], diagnostics: [] };
  }
  return { format: 'text', version: header.version, ignored: false, registryDate: header.registryDate, entries, diagnostics };
}
