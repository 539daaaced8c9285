import { EntryBuilder, readSegmentFields, toFieldRecord } from './entry-builder.ts';
import { FIELDS_BY_SEGMENT, segmentEnd } from './layout.ts';
import { registryDateOf } from './registry-date.ts';
import type { FieDiagnostic, FieDocument, FieEntry, FieVersion } from './types.ts';

function isSupportedVersion(version: string): version is FieVersion {
  return version === 'FIE3' || version === 'FIE4';
}

function ignored(reason: string): FieDocument {
  return { format: 'text', version: null, ignored: true, reason, registryDate: null, entries: [], diagnostics: [] };
}

/** Splits on LF or CRLF; a lone CR inside a line is left alone. */
export function splitFieLines(text: string): string[] {
  return text.split(/\r?\n/);
}

/**
 * Decodes the text form of a FIE (what SILTRA downloads): an ETI header naming FIE3 or FIE4, blocks
 * of segment lines each starting at EMP (one entry per block), and an ETF trailer where decoding stops.
 * Never throws: a file it cannot use comes back ignored with a Spanish reason.
 */
export function decodeFieText(text: string): FieDocument {
  const lines = splitFieLines(text.replace(/^\uFEFF/, ''));
  let index = lines.findIndex((line) => line.trim() !== '');
  const header = index === -1 ? undefined : lines[index];
  if (header === undefined || !header.startsWith('ETI')) {
    return ignored('El archivo no empieza por la cabecera ETI de un FIE');
  }
  // The version sits in the header after the tag ('ETIFIE40…'); searched rather than sliced because
  // no FIE sample confirms its offset.
  const version = /FIE\d/.exec(header.slice(3))?.[0];
  if (version === undefined) return ignored('La cabecera ETI no indica la versión del FIE');
  if (!isSupportedVersion(version)) return ignored(`Versión de FIE no admitida: ${version} (se admiten FIE3 y FIE4)`);

  const diagnostics: FieDiagnostic[] = [];
  const headerFields = new EntryBuilder(diagnostics);
  readSegmentFields(headerFields, FIELDS_BY_SEGMENT.get('ETI') ?? [], header, index + 1);
  const inherited = headerFields.fieldsSoFar();

  const entries: FieEntry[] = [];
  let current: EntryBuilder | null = null;
  let trailerFound = false;
  for (index += 1; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    const lineNumber = index + 1;
    if (line.trim() === '') continue;
    const tag = line.slice(0, 3);
    if (tag === 'ETF') {
      trailerFound = true;
      reportLinesAfterTrailer(lines, index + 1, diagnostics);
      break;
    }
    if (tag === 'EMP') {
      if (current) entries.push(current.build());
      current = new EntryBuilder(diagnostics, inherited);
    }
    if (!current) {
      diagnostics.push({ kind: 'orphan-line', line: lineNumber, detail: `Línea fuera de un bloque EMP: ${line}` });
      continue;
    }
    readLine(current, tag, line, lineNumber, diagnostics);
  }
  if (current) entries.push(current.build());
  if (!trailerFound) diagnostics.push({ kind: 'missing-trailer', line: null, detail: 'Falta la línea final ETF' });

  return {
    format: 'text',
    version,
    ignored: false,
    registryDate: registryDateOf(entries.length > 0 ? entries.map((entry) => entry.fields) : [toFieldRecord(inherited)]),
    entries,
    diagnostics,
  };
}

function readLine(entry: EntryBuilder, tag: string, line: string, lineNumber: number, diagnostics: FieDiagnostic[]): void {
  const defs = FIELDS_BY_SEGMENT.get(tag);
  // Unknown segments (IT2, OIT, newer ones) and repeats are kept verbatim, never fatal.
  if (!defs || tag === 'ETI' || !entry.claimSegment(tag)) {
    if (defs && tag !== 'ETI') {
      diagnostics.push({ kind: 'repeated-segment', line: lineNumber, detail: `Segmento ${tag} repetido en el mismo bloque; se conserva el primero` });
    }
    entry.keepLine({ line: lineNumber, tag, text: line });
    return;
  }
  readSegmentFields(entry, defs, line, lineNumber);
  const end = segmentEnd(tag);
  if (line.length > end) {
    diagnostics.push({ kind: 'long-line', line: lineNumber, detail: `${tag} más largo de lo previsto; texto sobrante: '${line.slice(end)}'` });
  }
}

function reportLinesAfterTrailer(lines: readonly string[], from: number, diagnostics: FieDiagnostic[]): void {
  const remaining = lines.slice(from).filter((line) => line.trim() !== '').length;
  if (remaining > 0) {
    diagnostics.push({ kind: 'after-trailer', line: from + 1, detail: `${remaining} líneas después de ETF no se han leído` });
  }
}
