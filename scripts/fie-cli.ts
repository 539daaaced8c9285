/**
 * FIE command line: `npm run -s fie -- decode FILE…` writes NDJSON to stdout, one JSON object per line,
 * as it decodes. Per file, in order: a `{"kind":"file"}` line (version, ignored and why, registry date),
 * one `{"kind":"entry"}` line per entry (its fields, derived facts and A3 record), and an
 * `{"kind":"end"}` line (entry and diagnostic counts, and the registry date). Text files are streamed:
 * read in chunks, decoded line by line, each entry written from the reader's slot view and dropped (no
 * fields record is built: its JSON is written field by field), so memory stays flat whatever the size. An .xlsx is held compressed (a zip's directory is at its end) and read row by row; its registry
 * date (over all its rows) is known only at its end, so its file line says null and its end line has it.
 * An .xlsx that breaks part-way ends with an end line whose `damaged` says where (and a line on stderr).
 * Other spreadsheets (.xls, SpreadsheetML) are read whole by SheetJS.
 * Exit 0 even when a file is ignored (its file line says why); 2 when a path cannot be read; 1 on misuse.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { extname } from 'node:path';
import { toA3SyncRecord } from '#shared/a3/index.ts';
import { decodeFie, detectFieFormat, FieTextStream, type FieFormat, type FieHeaderState, type FieStreamSummary } from '#shared/fie/index.ts';
import { forEachField, type FieEntryRead } from '#shared/fie/slot-entry.ts';
import { FieSpreadsheetDamaged, streamFieXlsx } from '#shared/fie/xlsx-stream.ts';

const USAGE = 'Uso: npm run -s fie -- decode ARCHIVO…';
/** Read at a time, and the lines of its entries written at once: 256 KiB of FIE is a few MB of NDJSON, which a small heap holds. */
const CHUNK_BYTES = 256 * 1024;

const FORMAT_BY_EXTENSION: Readonly<Record<string, FieFormat>> = {
  '.xls': 'spreadsheet',
  '.xlsx': 'spreadsheet',
  '.xml': 'spreadsheet',
  '.txt': 'text',
  '.msj': 'text',
  '.fie': 'text',
};

/** What a file line says: as FieDocument's version, ignored, reason and registryDate. */
interface FileFacts {
  version: string | null;
  ignored: boolean;
  reason?: string;
  registryDate: string | null;
}

function headerFacts(header: Exclude<FieHeaderState, { status: 'waiting' }>): FileFacts {
  return header.status === 'read'
    ? { version: header.version, ignored: false, registryDate: header.registryDate }
    : { version: null, ignored: true, reason: header.reason, registryDate: null };
}

function fileLine(file: string, format: FieFormat, facts: FileFacts): string {
  const { version, ignored, reason, registryDate } = facts;
  return `${JSON.stringify({ kind: 'file', file, format, version, ignored, ...(reason === undefined ? {} : { reason }), registryDate })}\n`;
}

/** JSON.stringify of the entry's fields record, written field by field (in the record's order, ascending code). */
function fieldsJson(entry: FieEntryRead): string {
  let json = '';
  forEachField(entry, (code, field) => {
    json += `${json === '' ? '' : ','}"${code}":${JSON.stringify(field)}`;
  });
  return `{${json}}`;
}

function entryLine(file: string, entry: FieEntryRead): string {
  const facts = {
    fullname: entry.fullname,
    type: entry.type,
    isAlta: entry.isAlta,
    isBaja: entry.isBaja,
    duration: entry.duration,
    shortDuration: entry.shortDuration,
    isCanceled: entry.isCanceled,
    nif: entry.nif,
    idType: entry.idType,
    a3: toA3SyncRecord(entry),
  };
  // {"kind":"entry","file":…,"fields":{…},"fullname":…}: the fields spliced in as JSON already written.
  return `{"kind":"entry","file":${JSON.stringify(file)},"fields":${fieldsJson(entry)},${JSON.stringify(facts).slice(1)}\n`;
}

function endLine(file: string, summary: Pick<FieStreamSummary, 'entries' | 'diagnostics' | 'registryDate'>): string {
  return `${JSON.stringify({ kind: 'end', file, entries: summary.entries, diagnostics: summary.diagnostics, registryDate: summary.registryDate })}\n`;
}

/** stdout with backpressure: lines gather per chunk and go out in one write; a closed pipe (| head) ends the run quietly. */
class Output {
  private lines: string[] = [];
  closed = false;

  constructor(private readonly stream: NodeJS.WriteStream) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      this.closed = true;
    });
  }

  push(line: string): void {
    this.lines.push(line);
  }

  async flush(): Promise<void> {
    if (this.lines.length === 0) return;
    const text = this.lines.join('');
    this.lines = [];
    if (this.closed || this.stream.write(text)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.stream.off('drain', done);
        this.stream.off('close', done);
        resolve();
      };
      this.stream.on('drain', done);
      this.stream.on('close', done);
    });
  }
}

function readError(path: string, error: unknown): string {
  const code = error instanceof Error && 'code' in error ? String(error.code) : '';
  const why = code === 'ENOENT' ? 'no existe' : code === 'EISDIR' ? 'es una carpeta' : code === 'EACCES' ? 'no hay permiso de lectura' : 'error de lectura';
  return `No se puede leer el archivo "${path}": ${why}.`;
}

/** Every path is checked before anything is written, so a typo does not leave half an output. */
async function unreadable(paths: readonly string[]): Promise<string[]> {
  const errors: string[] = [];
  for (const path of paths) {
    try {
      const handle = await open(path, 'r');
      try {
        if ((await handle.stat()).isDirectory()) errors.push(readError(path, Object.assign(new Error('EISDIR'), { code: 'EISDIR' })));
      } finally {
        await handle.close();
      }
    } catch (error) {
      errors.push(readError(path, error));
    }
  }
  return errors;
}

async function decodeFile(path: string, out: Output): Promise<void> {
  const byExtension = FORMAT_BY_EXTENSION[extname(path).toLowerCase()];
  const input = createReadStream(path, { highWaterMark: CHUNK_BYTES });
  let text: FieTextStream | null = null;
  let sheet: Buffer[] | null = null;
  const startText = () => new FieTextStream({ header: (header) => out.push(fileLine(path, 'text', headerFacts(header))), slots: (entry) => out.push(entryLine(path, entry)) });

  for await (const chunk of input as AsyncIterable<Buffer>) {
    if (text === null && sheet === null) {
      // Spreadsheets by extension, else by the magic bytes at the start of the file.
      if ((byExtension ?? detectFieFormat(chunk)) === 'spreadsheet') sheet = [];
      else text = startText();
    }
    if (sheet !== null) {
      sheet.push(chunk);
      continue;
    }
    // Latin-1 to text with Buffer (one byte, one character): the native copy, in 64 KiB pieces.
    text?.writeLatin1(chunk);
    await out.flush();
    if (text?.ignored || out.closed) break;
  }

  if (sheet !== null || (text === null && byExtension === 'spreadsheet')) {
    const bytes = Buffer.concat(sheet ?? []);
    sheet = null;
    if (!(await streamXlsx(path, bytes, out))) {
      const document = decodeFie(bytes, { format: 'spreadsheet' });
      out.push(fileLine(path, 'spreadsheet', document));
      for (const entry of document.entries) out.push(entryLine(path, entry));
      out.push(endLine(path, { entries: document.entries.length, diagnostics: document.diagnostics.length, registryDate: document.registryDate }));
    }
  } else {
    out.push(endLine(path, (text ?? startText()).end()));
  }
  await out.flush();
}

/**
 * An .xlsx row by row (streamFieXlsx): false when it is not one, or does not read before its first
 * entry (SheetJS reads it then). A sheet that breaks part-way ends with the entries read so far and an
 * end line whose `damaged` says where, also said on stderr.
 */
async function streamXlsx(path: string, bytes: Uint8Array, out: Output): Promise<boolean> {
  let headed = false;
  const head = (facts: FileFacts) => {
    if (headed) return;
    headed = true;
    out.push(fileLine(path, 'spreadsheet', facts));
  };
  const sink = {
    entry(entry: FieEntryRead) {
      head({ version: null, ignored: false, registryDate: null });
      out.push(entryLine(path, entry));
    },
    diagnostic() {},
  };
  try {
    const summary = await streamFieXlsx(bytes, sink, { stopped: () => out.closed, drain: () => out.flush() });
    if (summary === null) return false;
    head(summary);
    out.push(endLine(path, summary));
  } catch (error) {
    if (!(error instanceof FieSpreadsheetDamaged)) throw error;
    head({ version: null, ignored: false, registryDate: null });
    const { entries, diagnostics } = error;
    out.push(`${JSON.stringify({ kind: 'end', file: path, entries, diagnostics, registryDate: null, damaged: error.message })}\n`);
    process.stderr.write(`«${path}»: ${error.message}. Solo se han leído sus ${entries} primeros partes.\n`);
  }
  return true;
}

async function main(args: readonly string[]): Promise<number> {
  const [command, ...paths] = args;
  if (command !== 'decode' || paths.length === 0) {
    process.stderr.write(`${USAGE}\n`);
    return 1;
  }
  const errors = await unreadable(paths);
  if (errors.length > 0) {
    process.stderr.write(`${errors.join('\n')}\n`);
    return 2;
  }
  const out = new Output(process.stdout);
  for (const path of paths) {
    if (out.closed) break;
    try {
      await decodeFile(path, out);
    } catch (error) {
      process.stderr.write(`${readError(path, error)}\n`);
      return 2;
    }
  }
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
