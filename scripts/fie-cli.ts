/**
 * FIE command line: `npm run -s fie -- decode FILE…` prints one JSON object per file to stdout.
 * Exit 0 even when a file is ignored (the JSON says why); exit 2 when a path cannot be read; 1 on misuse.
 */
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import iconv from 'iconv-lite';
import { toA3SyncRecord } from '#shared/a3/index.ts';
import { decodeFie, detectFieFormat, type FieDocument, type FieFormat } from '#shared/fie/index.ts';

const USAGE = 'Uso: npm run -s fie -- decode ARCHIVO…';

const FORMAT_BY_EXTENSION: Readonly<Record<string, FieFormat>> = {
  '.xls': 'spreadsheet',
  '.xlsx': 'spreadsheet',
  '.xml': 'spreadsheet',
  '.txt': 'text',
  '.msj': 'text',
  '.fie': 'text',
};

/** Spreadsheets by extension, else by their magic bytes; text is decoded as Latin-1 with iconv-lite. */
function decodeBytes(path: string, bytes: Buffer): FieDocument {
  const format = FORMAT_BY_EXTENSION[extname(path).toLowerCase()] ?? detectFieFormat(bytes);
  return format === 'spreadsheet' ? decodeFie(bytes, { format }) : decodeFie(iconv.decode(bytes, 'latin1'), { format });
}

function report(file: string, document: FieDocument) {
  return {
    file,
    version: document.version,
    ignored: document.ignored,
    ...(document.reason === undefined ? {} : { reason: document.reason }),
    registryDate: document.registryDate,
    entries: document.entries.map((entry) => ({
      fields: entry.fields,
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
    })),
  };
}

async function readAll(paths: readonly string[]): Promise<{ files: Array<[string, Buffer]>; errors: string[] }> {
  const files: Array<[string, Buffer]> = [];
  const errors: string[] = [];
  for (const path of paths) {
    try {
      files.push([path, await readFile(path)]);
    } catch (error) {
      const code = error instanceof Error && 'code' in error ? String(error.code) : '';
      const why = code === 'ENOENT' ? 'no existe' : code === 'EISDIR' ? 'es una carpeta' : code === 'EACCES' ? 'no hay permiso de lectura' : 'error de lectura';
      errors.push(`No se puede leer el archivo "${path}": ${why}.`);
    }
  }
  return { files, errors };
}

async function main(args: readonly string[]): Promise<number> {
  const [command, ...paths] = args;
  if (command !== 'decode' || paths.length === 0) {
    process.stderr.write(`${USAGE}\n`);
    return 1;
  }
  const { files, errors } = await readAll(paths);
  if (errors.length > 0) {
    process.stderr.write(`${errors.join('\n')}\n`);
    return 2;
  }
  const output = files.map(([path, bytes]) => report(path, decodeBytes(path, bytes)));
  process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
