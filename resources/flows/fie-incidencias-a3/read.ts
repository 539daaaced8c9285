import { decodeFie, detectFieFormat } from '#shared/fie/decode.ts';
import { FieTextStream } from '#shared/fie/stream.ts';
import { FieSpreadsheetDamaged, streamFieXlsx } from '#shared/fie/xlsx-stream.ts';
import type { FieEntryRead } from '#shared/fie/slot-entry.ts';
import type { FieDiagnostic, FieFormat, FieVersion } from '#shared/fie/types.ts';
import type { RobotFile } from '#shared/flows/robot.ts';
import { concatChunks, fileChunks } from '../_lib/files.ts';

/** detectFieFormat looks at this many bytes at most, so a file's first chunks are held until they add up to it. */
const FORMAT_HEAD_BYTES = 64;

/** Where a file's entries and diagnostics go as they are read. */
export interface FieSink {
  /** A text FIE's entries come through the reader's slot view, valid during the call only (shared/fie/slot-entry.ts). */
  entry(entry: FieEntryRead): void;
  diagnostic(diagnostic: FieDiagnostic): void;
  /** A chunk of `count` bytes has been decoded (its entries and diagnostics are out), for the progress estimate. */
  chunk(count: number): void;
  aborted(): boolean;
}

export interface ReadFie {
  format: FieFormat;
  version: FieVersion | null;
  ignored: boolean;
  reason?: string;
  entries: number;
  /** A spreadsheet that broke part-way: its entries up to there were read, the rest was not. */
  damaged?: string;
}

/**
 * Reads one upload into the sink: the first bytes say text or spreadsheet (detectFieFormat, as decodeFie);
 * text goes through FieTextStream chunk by chunk (the same entries and diagnostics, in the same order, as
 * decodeFie on the whole file); a spreadsheet is gathered (an .xlsx needs its zip's directory, at the end)
 * and an .xlsx read row by row (streamFieXlsx), other spreadsheets decoded whole by SheetJS (.xls,
 * SpreadsheetML: small by nature). Null when the run was stopped.
 */
export async function readFie(file: RobotFile, sink: FieSink): Promise<ReadFie | null> {
  let format: FieFormat | null = null;
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  let entries = 0;
  const text = new FieTextStream({
    slots: (entry) => {
      entries += 1;
      sink.entry(entry);
    },
    diagnostic: (diagnostic) => sink.diagnostic(diagnostic),
  });
  for await (const chunk of fileChunks(file)) {
    if (format === 'text') text.write(chunk);
    else {
      held.push(chunk);
      heldBytes += chunk.length;
      if (format === null && heldBytes >= FORMAT_HEAD_BYTES) {
        format = detectFieFormat(concatChunks(held));
        if (format === 'text') {
          for (const piece of held) text.write(piece);
          held = [];
        }
      }
    }
    sink.chunk(chunk.length);
    if (sink.aborted()) return null;
    // Not a FIE: the rest is not read (leaving the loop closes a file stream).
    if (text.ignored) break;
  }
  format ??= detectFieFormat(concatChunks(held));
  if (format === 'spreadsheet') {
    const bytes = concatChunks(held);
    held = [];
    const streamed = await readXlsx(bytes, sink);
    if (streamed !== undefined) return streamed;
    const document = decodeFie(bytes, { format });
    for (const diagnostic of document.diagnostics) sink.diagnostic(diagnostic);
    for (const entry of document.entries) {
      if (sink.aborted()) return null;
      sink.entry(entry);
    }
    return { format, version: null, ignored: document.ignored, ...(document.reason !== undefined && { reason: document.reason }), entries: document.entries.length };
  }
  for (const piece of held) text.write(piece);
  const summary = text.end();
  if (sink.aborted()) return null;
  return { format, version: summary.version, ignored: summary.ignored, ...(summary.reason !== undefined && { reason: summary.reason }), entries };
}

/** An .xlsx into the sink row by row; undefined when the bytes are not one (SheetJS reads them). */
async function readXlsx(bytes: Uint8Array, sink: FieSink): Promise<ReadFie | null | undefined> {
  try {
    const summary = await streamFieXlsx(bytes, sink, { stopped: () => sink.aborted() });
    if (sink.aborted()) return null;
    if (summary === null) return undefined;
    return { format: 'spreadsheet', version: null, ignored: summary.ignored, ...(summary.reason !== undefined && { reason: summary.reason }), entries: summary.entries };
  } catch (error) {
    if (!(error instanceof FieSpreadsheetDamaged)) throw error;
    return { format: 'spreadsheet', version: null, ignored: false, entries: error.entries, damaged: error.message };
  }
}
