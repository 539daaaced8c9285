/**
 * Writes one AFI remittance into SILTRA's input folder <SILTRA>/RED/VIPTC2/AFI (research external-systems
 * §2.1: where a3 leaves it for 'Procesar remesas Afiliación'). The name is ours, 8 characters as the ETI
 * holds it: 'A', the Madrid month and day (MMDD) and the day's remittance number (001-999), then '.AFI'.
 * Written atomically: the lines go to a hidden temporary file that is then linked under the final name,
 * which fails rather than overwrite when another remittance took that name meanwhile (the next number is
 * tried). SILTRA never sees half a file.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, readdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RedAltaRecord, RedResult } from '#shared/api/altas.ts';
import { toMadridParts } from '#shared/time/madrid.ts';
import type { AltasLog } from '../types.ts';
import { afiMessage, afiRecordProblem } from './afi-message.ts';

/** SILTRA's folder for afiliación remittances, under its install folder. */
export const AFI_SUBFOLDER = ['RED', 'VIPTC2', 'AFI'] as const;
const MAX_SENDS_PER_DAY = 999;

export interface AfiWriteOptions {
  /** SILTRA's install folder (e.g. C:\SILTRA). */
  siltraFolder: string;
  /** The firm's clave de autorización RED, 8 digits. */
  authorizationKey: string;
  /** A test remittance (ETI 'P'). */
  test: boolean;
  now: () => Date;
  log: AltasLog;
}

export interface AfiWriteOutcome {
  /** The file's full path; '' when no record could go in it. */
  file: string;
  results: RedResult[];
}

const pad = (value: number, length = 2) => String(value).padStart(length, '0');

export async function writeAfiRemittance(records: readonly RedAltaRecord[], options: AfiWriteOptions): Promise<AfiWriteOutcome> {
  if (!/^\d{8}$/.test(options.authorizationKey)) throw new Error('Falta la clave de autorización RED (8 dígitos) para escribir el fichero AFI: indícala en la configuración.');
  const problems = new Map<string, string>();
  for (const record of records) {
    const problem = afiRecordProblem(record);
    if (problem) problems.set(record.submissionId, `No se puede incluir en el fichero AFI: ${problem}.`);
  }
  const writable = records.filter((record) => !problems.has(record.submissionId));
  for (const record of records.filter((candidate) => problems.has(candidate.submissionId))) {
    options.log('error', `${record.worker} (${record.company}): ${problems.get(record.submissionId)}`);
  }
  if (writable.length === 0) {
    options.log('error', 'Ninguna alta se puede escribir en el fichero AFI.');
    return { file: '', results: records.map((record) => ({ submissionId: record.submissionId, state: 'error', message: problems.get(record.submissionId)! })) };
  }

  const folder = join(options.siltraFolder, ...AFI_SUBFOLDER);
  await mkdir(folder, { recursive: true });
  const moment = toMadridParts(options.now());
  const date = `${pad(moment.year, 4)}${pad(moment.month)}${pad(moment.day)}`;
  const time = `${pad(moment.hour)}${pad(moment.minute)}`;
  const prefix = `A${pad(moment.month)}${pad(moment.day)}`;
  const file = await placeAtomically(folder, prefix, await nextSendNumber(folder, prefix), (fileName, sendNumber) => {
    const lines = afiMessage(writable, { authorizationKey: options.authorizationKey, date, time, fileName, sendNumber, test: options.test });
    return Buffer.from(`${lines.join('\r\n')}\r\n`, 'latin1');
  });
  const name = file.slice(folder.length + 1);
  options.log('info', `Fichero AFI ${name} escrito en ${folder} con ${writable.length} alta(s): SILTRA lo enviará al procesar las remesas de afiliación.`);
  return {
    file,
    results: records.map((record) =>
      problems.has(record.submissionId)
        ? { submissionId: record.submissionId, state: 'error', message: problems.get(record.submissionId)! }
        : { submissionId: record.submissionId, state: 'afi-written', message: `Incluida en el fichero AFI ${name}, pendiente de envío por SILTRA.`, afiFile: name },
    ),
  };
}

/** One past the highest number of today's remittances already in the folder. */
async function nextSendNumber(folder: string, prefix: string): Promise<number> {
  const pattern = new RegExp(`^${prefix}(\\d{3})\\.AFI$`, 'i');
  const taken = (await readdir(folder)).map((name) => Number(pattern.exec(name)?.[1] ?? 0));
  return Math.max(0, ...taken) + 1;
}

async function placeAtomically(folder: string, prefix: string, firstNumber: number, content: (fileName: string, sendNumber: number) => Buffer): Promise<string> {
  for (let sendNumber = firstNumber; sendNumber <= MAX_SENDS_PER_DAY; sendNumber += 1) {
    const fileName = `${prefix}${pad(sendNumber, 3)}`;
    const target = join(folder, `${fileName}.AFI`);
    const temporary = join(folder, `.${fileName}.${randomBytes(6).toString('hex')}.tmp`);
    await writeFile(temporary, content(fileName, sendNumber), { flag: 'wx' });
    try {
      if (await linkOrRename(temporary, target)) return target;
    } finally {
      await unlink(temporary).catch(() => undefined);
    }
  }
  throw new Error(`Ya hay ${MAX_SENDS_PER_DAY} ficheros AFI de hoy en ${folder}: envíalos con SILTRA antes de escribir más.`);
}

/** True when `target` now holds the file; false when the name was taken. */
async function linkOrRename(temporary: string, target: string): Promise<boolean> {
  try {
    await link(temporary, target);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // Some shares cannot hard-link: a checked rename is the next best (a tiny window instead of none).
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'ENOSYS') throw error;
    if (await stat(target).then(() => true, () => false)) return false;
    await rename(temporary, target);
    return true;
  }
}
