import { MACRO_SCHEMA_VERSION } from '#shared/macros/definition.ts';
import type { MacroDefinition, MacroStep } from '#shared/macros/definition.ts';
import type { ScrapeCandidate } from '../../api/macrosBridge.ts';

/** The launch input that carries the page's certificate, when the user chose one. */
export const SCRAPER_CERTIFICATE_INPUT = 'certificado';
/** Where 'Seguir por las páginas' looks for the next page until the user edits it. */
export const DEFAULT_NEXT_TARGET = 'internal:role=link[name="Siguiente"i]';
export const DEFAULT_MAX_PAGES = 50;

export interface ScrapeChoice {
  url: string;
  name: string;
  outputFileName: string;
  candidate: ScrapeCandidate;
  /** A list's column names, in the order of its fields (the user may rename them). */
  columns: string[];
  withCertificate: boolean;
  paginate: { target: string; maxTimes: number } | null;
}

/** The page's host for a default name ('Datos de www.seg-social.es'), or the URL itself. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/** A simple .xlsx name from the robot's name ('Afiliados RED' -> 'afiliados-red.xlsx'). */
export function outputNameFor(name: string): string {
  const base = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${base || 'datos'}.xlsx`;
}

/**
 * The macro the scraper saves: open the page, copy the chosen table (extractTable) or repeated block
 * (extractList with the named columns), and with 'Seguir por las páginas' the copy sits inside a
 * repeatWhile over the 'Siguiente' locator, so each page's rows are appended to the 'Datos' sheet.
 */
export function scrapeMacro(choice: ScrapeChoice, newId: () => string): MacroDefinition {
  const { candidate } = choice;
  const extract: MacroStep =
    candidate.kind === 'table'
      ? { id: newId(), type: 'extractTable', target: candidate.target }
      : {
          id: newId(),
          type: 'extractList',
          target: candidate.target,
          fields: (candidate.fields ?? []).map((field, index) => ({ column: choice.columns[index]?.trim() || field.column, target: field.target })),
        };
  const steps: MacroStep[] = [
    { id: newId(), type: 'goto', url: { kind: 'text', text: choice.url } },
    choice.paginate ? { id: newId(), type: 'repeatWhile', target: choice.paginate.target, maxTimes: choice.paginate.maxTimes, steps: [extract] } : extract,
  ];
  const origin = /^https:\/\/[^/\s?#]+/.exec(choice.url)?.[0];
  const certificate = choice.withCertificate && origin !== undefined;
  return {
    schemaVersion: MACRO_SCHEMA_VERSION,
    name: choice.name.trim(),
    description: `Copia ${candidate.kind === 'table' ? 'la tabla' : 'la lista'} de ${choice.url} a una hoja de cálculo${choice.paginate ? ', página a página' : ''}.`.slice(0, 1000),
    startUrl: choice.url,
    ...(certificate && { certificate: { input: SCRAPER_CERTIFICATE_INPUT, origins: [origin] } }),
    inputs: certificate ? [{ key: SCRAPER_CERTIFICATE_INPUT, label: 'Certificado', kind: 'certificate', required: true }] : [],
    steps,
    charge: { per: 'run', slans: 1 },
    outputFileName: choice.outputFileName.trim(),
    timeLimitSeconds: choice.paginate ? 1800 : 600,
  };
}
