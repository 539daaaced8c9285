/**
 * Test-only stand-in for A3's IT import (external-systems §4: a3innuva Nómina / a3nom "Nueva IT",
 * informed en masa through an Excel): a folder watcher that reads each import workbook the desktop drops
 * (main/a3/import.ts) and writes `<name>.respuesta.xlsx` beside it, one row per IT, accepted or refused
 * with a message in A3's words. Its rules, from the §4 fields:
 *   - the company must exist (by CCC, else by name) and the worker (NIF) must belong to it;
 *   - contingencia is one of A3's (enfermedad común, accidente no laboral, accidente de trabajo,
 *     enfermedad profesional, periodo de observación);
 *   - fecha inicio and fin are dd/mm/aaaa, fin not before inicio; a row with only fecha fin closes the
 *     worker's open IT (refused when there is none); the same IT again (a confirmation, a resend) is
 *     accepted as already there, or closed when it now ends, and refused with another contingencia;
 *   - tipo de prestación is pago delegado, pago directo or sin derecho;
 *   - an anulada row removes the IT it started (refused when there is none).
 * It keeps the ITs it accepted in memory (A3's state), so a later import sees earlier ones.
 * It also takes the altas' '202 – MA' workbooks (`MA_…`, rules in altas.ts); an accepted alta adds the
 * worker to its company's staff, so a later IT of that worker is taken.
 */
import { readdir, rename, stat, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { A3_BENEFIT_TYPES, type A3AnswerRow, type A3ItRow } from '../../main/a3/it-rows.ts';
import { readItWorkbook, writeAnswerWorkbook } from '../../main/a3/workbook.ts';
import { ANSWER_SUFFIX, IMPORT_PREFIX, PARTIAL_SUFFIX } from '../../main/a3/import.ts';
import { ALTAS_IMPORT_PREFIX } from '../../main/a3/altas-import.ts';
import { importAltaRow, readAltasWorkbook, type A3Alta } from './altas.ts';

export interface A3Company {
  /** 'PP/NNNNNNN/DD' or its 11 digits. */
  ccc: string;
  name: string;
  /** NIFs of its workers. */
  workers: string[];
}

export interface A3ImporterOptions {
  folder: string;
  companies: A3Company[];
  /** How often the folder is looked at. Default 100 ms. */
  pollMs?: number;
}

export interface A3It {
  companyCcc: string;
  nif: string;
  contingency: string;
  start: string;
  end: string | null;
  benefitType: string;
}

export interface A3Importer {
  /** The ITs A3 holds now. */
  its: A3It[];
  /** The altas A3 took ('202 – MA'). */
  altas: A3Alta[];
  /** Import files answered so far, by name. */
  answered: string[];
  /** Looks at the folder once (what each poll does). */
  scan(): Promise<void>;
  close(): Promise<void>;
}

export const A3_CONTINGENCIES = ['Enfermedad común', 'Accidente no laboral', 'Accidente de trabajo', 'Enfermedad profesional', 'Periodo de observación por enfermedad profesional'];

export function startA3Importer(options: A3ImporterOptions): A3Importer {
  const its: A3It[] = [];
  const altas: A3Alta[] = [];
  const answered: string[] = [];
  let scanning: Promise<void> | null = null;
  let closed = false;

  async function scanOnce(): Promise<void> {
    let names: string[];
    try {
      names = await readdir(options.folder);
    } catch {
      return;
    }
    for (const name of names.sort()) {
      const isAltas = name.startsWith(ALTAS_IMPORT_PREFIX);
      if (!(isAltas || name.startsWith(IMPORT_PREFIX)) || !name.endsWith('.xlsx') || name.endsWith(ANSWER_SUFFIX) || name.endsWith(PARTIAL_SUFFIX)) continue;
      const answerName = name.replace(/\.xlsx$/, ANSWER_SUFFIX);
      if (names.includes(answerName) || answered.includes(name)) continue;
      const path = join(options.folder, name);
      if (!(await stat(path).then((info) => info.isFile(), () => false))) continue;
      const answer = isAltas ? await answerAltas(path) : await answerIts(path);
      const partial = join(options.folder, `${answerName}${PARTIAL_SUFFIX}`);
      await writeFile(partial, writeAnswerWorkbook(answer));
      await rename(partial, join(options.folder, answerName));
      answered.push(name);
    }
  }

  async function answerIts(path: string): Promise<A3AnswerRow[]> {
    try {
      return readItWorkbook(new Uint8Array(await readFile(path))).map((row) => importRow(row));
    } catch {
      return [{ reference: '', accepted: false, message: 'El fichero no tiene el formato de importación de IT.' }];
    }
  }

  async function answerAltas(path: string): Promise<A3AnswerRow[]> {
    let rows;
    try {
      rows = readAltasWorkbook(new Uint8Array(await readFile(path)));
    } catch {
      return [{ reference: '', accepted: false, message: 'El fichero no tiene el formato de importación de altas (202 – MA).' }];
    }
    return rows.map((row) => {
      const answer = importAltaRow(row, altas);
      const ccc = digits(row.ccc);
      const company = options.companies.find((each) => digits(each.ccc) === ccc);
      const nif = row.nif.toUpperCase();
      if (answer.accepted && company && !company.workers.some((worker) => worker.toUpperCase() === nif)) company.workers.push(nif);
      return answer;
    });
  }

  function importRow(row: A3ItRow): A3AnswerRow {
    const reference = row.Referencia;
    const refuse = (message: string): A3AnswerRow => ({ reference, accepted: false, message });
    const company = findCompany(row);
    if (!company) return refuse(`La empresa ${row.CCC || row.Empresa || '(sin identificar)'} no existe en a3nom.`);
    const nif = row['NIF trabajador'].trim().toUpperCase();
    if (!nif) return refuse('Falta el NIF del trabajador.');
    if (!company.workers.map((worker) => worker.toUpperCase()).includes(nif)) return refuse(`El trabajador ${nif} no está dado de alta en la empresa ${company.name}.`);
    const start = row['Fecha inicio'].trim();
    const end = row['Fecha fin'].trim();
    if (start && !isDate(start)) return refuse(`La fecha de inicio «${start}» no es válida (dd/mm/aaaa).`);
    if (end && !isDate(end)) return refuse(`La fecha de fin «${end}» no es válida (dd/mm/aaaa).`);
    if (!start && !end) return refuse('La IT no tiene fecha de inicio ni de fin.');
    if (start && end && sortable(end) < sortable(start)) return refuse('La fecha de fin de la IT es anterior a la fecha de inicio.');
    if (!(A3_BENEFIT_TYPES as readonly string[]).includes(row['Tipo de prestación'])) return refuse(`Tipo de prestación no válido: «${row['Tipo de prestación']}».`);
    const ccc = digits(company.ccc);
    const ofWorker = its.filter((it) => it.companyCcc === ccc && it.nif === nif);

    if (row.Anulada === 'Sí') {
      const started = ofWorker.find((it) => it.start === start);
      if (!started) return refuse(`No existe ninguna IT del trabajador ${nif} con fecha de inicio ${start || '(sin fecha)'} que anular.`);
      its.splice(its.indexOf(started), 1);
      return { reference, accepted: true, message: 'IT anulada.' };
    }
    if (!start) {
      const open = ofWorker.find((it) => it.end === null);
      if (!open) return refuse(`El trabajador ${nif} no tiene ninguna IT abierta que cerrar.`);
      if (sortable(end) < sortable(open.start)) return refuse('La fecha de fin de la IT es anterior a la fecha de inicio.');
      open.end = end;
      return { reference, accepted: true, message: 'IT cerrada.' };
    }
    if (!A3_CONTINGENCIES.includes(row.Contingencia)) return refuse(row.Contingencia ? `Contingencia no válida: «${row.Contingencia}».` : 'Falta la contingencia de la IT.');
    const same = ofWorker.find((it) => it.start === start);
    if (same) {
      // A confirmation, a resend or a short alta of an IT A3 already has: the same IT, closed if it now ends.
      if (same.contingency !== row.Contingencia) return refuse(`Ya existe una IT del trabajador ${nif} con fecha de inicio ${start} y otra contingencia.`);
      if (end && same.end === null) {
        same.end = end;
        return { reference, accepted: true, message: 'IT cerrada.' };
      }
      return { reference, accepted: true, message: 'La IT ya estaba registrada.' };
    }
    its.push({ companyCcc: ccc, nif, contingency: row.Contingencia, start, end: end || null, benefitType: row['Tipo de prestación'] });
    return { reference, accepted: true, message: end ? 'IT dada de alta y cerrada.' : 'IT dada de alta.' };
  }

  function findCompany(row: A3ItRow): A3Company | undefined {
    const ccc = digits(row.CCC);
    if (ccc) return options.companies.find((company) => digits(company.ccc) === ccc);
    const name = row.Empresa.trim().toUpperCase();
    return name ? options.companies.find((company) => company.name.toUpperCase() === name) : undefined;
  }

  const scan = () => {
    scanning ??= scanOnce().finally(() => (scanning = null));
    return scanning;
  };
  const timer = setInterval(() => {
    if (!closed) void scan();
  }, options.pollMs ?? 100);
  timer.unref();

  return {
    its,
    altas,
    answered,
    scan,
    async close() {
      closed = true;
      clearInterval(timer);
      await scanning;
    },
  };
}

const digits = (text: string) => text.replace(/\D/g, '');
const sortable = (date: string) => date.split('/').reverse().join('');

function isDate(text: string): boolean {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
  if (!match) return false;
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
