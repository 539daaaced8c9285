import type { Dirent } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { FIE_UPLOAD_MAX_FILE_BYTES } from '#shared/api/fie.ts';
import { isoFromCompact, madridDay } from './dates.ts';

/** A FIE file found for the asked days, with its bytes (uploaded as they are: the server decodes). */
export interface FetchedFieFile {
  name: string;
  bytes: Uint8Array;
  /** The day it belongs to: the FIE header's date, else the day SILTRA wrote it. */
  day: string;
  source: 'folder' | 'fier';
}

/** Subfolders looked into below the configured one (SILTRA keeps its mailboxes a level or two down). */
const MAX_DEPTH = 2;
/** What a FIE text file's first line is: the ETI header, its date (field 100) at [29:37]. */
const ETI_HEADER = /^\uFEFF?ETI/;
const SPREADSHEET = /\.(xlsx|xls)$/i;

export const SILTRA_FOLDER_MISSING = (folder: string) =>
  `No se encuentra la carpeta de SILTRA «${folder}»: revisa la carpeta de ficheros recibidos en la configuración.`;

/**
 * The FIE files SILTRA received for the days from..to (inclusive, ISO). A text FIE counts for the
 * date of its ETI header (the day the INSS generated it: copying the file keeps it); an Excel export
 * for the Madrid day it was written. Other files (AFI, cotización, anything else) are skipped without
 * reading more than their first line. Research (external-systems §3): the exact folder is not
 * confirmed (RED\INSS or SVA\MREC), so it is a setting and a couple of levels below it are searched.
 */
export async function readSiltraFolder(folder: string, from: string, to: string): Promise<FetchedFieFile[]> {
  try {
    if (!(await stat(folder)).isDirectory()) throw new Error(SILTRA_FOLDER_MISSING(folder));
  } catch {
    throw new Error(SILTRA_FOLDER_MISSING(folder));
  }
  const found: FetchedFieFile[] = [];
  for (const path of await filesUnder(folder, MAX_DEPTH)) {
    const info = await stat(path);
    if (info.size === 0 || info.size > FIE_UPLOAD_MAX_FILE_BYTES) continue;
    const day = await fieDayOf(path, info.mtime);
    if (day === null || day < from || day > to) continue;
    const bytes = await readAll(path, info.size);
    found.push({ name: relative(folder, path).split(/[\\/]/).join('_'), bytes, day, source: 'folder' });
  }
  return found.sort((a, b) => a.day.localeCompare(b.day) || a.name.localeCompare(b.name));
}

async function filesUnder(folder: string, depth: number): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isFile()) files.push(path);
    else if (entry.isDirectory() && depth > 0) files.push(...(await filesUnder(path, depth - 1)));
  }
  return files;
}

/** The day a FIE file counts for, or null when it is not a FIE. */
async function fieDayOf(path: string, modified: Date): Promise<string | null> {
  if (SPREADSHEET.test(path)) return madridDay(modified);
  const head = await readHead(path, 80);
  if (!ETI_HEADER.test(head)) return null;
  return isoFromCompact(head.replace(/^\uFEFF/, '').slice(29, 37)) ?? madridDay(modified);
}

async function readHead(path: string, length: number): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead).toString('latin1');
  } finally {
    await handle.close();
  }
}

async function readAll(path: string, size: number): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(size);
    const { bytesRead } = await handle.read(buffer, 0, size, 0);
    return new Uint8Array(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}
