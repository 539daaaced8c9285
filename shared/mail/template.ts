import { formatCredits } from '../billing/money.ts';
import { renderDocumentTemplate } from '../documents/template.ts';

/**
 * The message a robot's result goes out with: the subject and body written in the email wizard, with
 * the document template placeholders (spec §3: [[DATESTAMP]], [[TIMESTAMP]], [[DATETIMESTAMP]], [[IF
 * key]]…[[/IF]]) and these of the run. The wizard previews with sample values; the server renders the
 * real ones when it queues the mail, so both read the same rules.
 */
export interface MailTemplateValues {
  /** The robot's name ('Validar identificadores'). */
  robot: string;
  /** What the run ended with ('Completado: 1.000 filas'); '' when it said nothing. */
  result: string;
  /** The names of the attached files. */
  files: readonly string[];
  /** The firm's name. */
  firm: string;
}

/** The placeholders the wizard offers, with what each stands for. */
export const MAIL_PLACEHOLDERS = [
  { key: 'ROBOT', label: 'Nombre del robot' },
  { key: 'RESULTADO', label: 'Resultado de la ejecución' },
  { key: 'ARCHIVOS', label: 'Archivos adjuntos' },
  { key: 'EMPRESA', label: 'Nombre de tu asesoría' },
  { key: 'DATESTAMP', label: 'Fecha (dd/mm/aaaa)' },
  { key: 'TIMESTAMP', label: 'Hora (hh:mm:ss)' },
  { key: 'DATETIMESTAMP', label: 'Fecha y hora' },
] as const;

export const DEFAULT_MAIL_SUBJECT = 'Resultado de [[ROBOT]] del [[DATESTAMP]]';
export const DEFAULT_MAIL_BODY = [
  'Hola:',
  '',
  'Te enviamos el resultado de [[ROBOT]] del [[DATETIMESTAMP]].',
  '[[IF RESULTADO]]',
  'Resultado: [[RESULTADO]][[/IF]]',
  '[[IF ARCHIVOS]]',
  'Archivos adjuntos: [[ARCHIVOS]][[/IF]]',
  '',
  'Un saludo,',
  '[[EMPRESA]]',
].join('\n');

/** A finished run's figures, as flow_runs keeps them: what [[RESULTADO]] is written from. */
export interface RunFigures {
  /** RunResultName: 'Success', 'WrongInput'… */
  result: string;
  /** What the robot said at the end (a WrongInput's reason); null or '' when nothing. */
  message: string | null;
  /** Rows (iterations) the robot went through: its last progress' total. */
  checked: number;
  /** Of those, the ones without an error: its last progress' done. */
  successful: number;
  /** Slans charged for the run. */
  charged: number;
}

/** Grouped from four digits on ('1.250'), as the preview reads: es-ES leaves '1250' ungrouped by default. */
const FIGURES = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 2, useGrouping: 'always' });

/**
 * The [[RESULTADO]] line of a run, the same words for every robot and in the preview:
 * 'Completado: 1.250 filas comprobadas, 3 con errores. Coste: 13 slans'. A WrongInput says why the
 * data was refused; a run that counted no rows says only that it finished (and what it cost).
 */
export function runResultText(figures: RunFigures): string {
  const message = figures.message?.replace(/\s+/g, ' ').trim() ?? '';
  const cost = figures.charged > 0 ? `. Coste: ${formatCredits(figures.charged)}` : '';
  if (figures.result !== 'Success') return `Entradas incorrectas${message === '' ? '' : `: ${message.replace(/\.$/, '')}`}${cost}`;
  const checked = Math.max(0, figures.checked);
  if (checked === 0) return `Completado${cost}`;
  const errors = Math.min(checked, Math.max(0, checked - figures.successful));
  const rows = `${FIGURES.format(checked)} ${checked === 1 ? 'fila comprobada' : 'filas comprobadas'}`;
  const wrong = errors === 0 ? 'ninguna con errores' : `${FIGURES.format(errors)} con ${errors === 1 ? 'error' : 'errores'}`;
  return `Completado: ${rows}, ${wrong}${cost}`;
}

/** The run the wizard's preview pretends to have sent. */
export const SAMPLE_RUN_FIGURES: RunFigures = { result: 'Success', message: null, checked: 1250, successful: 1247, charged: 13 };

/** What the wizard's preview fills the placeholders with. */
export const SAMPLE_MAIL_VALUES: MailTemplateValues = {
  robot: 'Validar identificadores',
  result: runResultText(SAMPLE_RUN_FIGURES),
  files: ['trabajadores-validado.xlsx'],
  firm: 'Asesoría Ejemplo',
};

/**
 * The message with the run's values. A block an [[IF]] dropped leaves its own line breaks behind:
 * runs of blank lines close up to one, and none is left at the start or the end.
 */
export function renderMailTemplate(template: string, values: MailTemplateValues, now: Date): string {
  const text = renderDocumentTemplate(template, { ROBOT: values.robot, RESULTADO: values.result, ARCHIVOS: [...values.files], EMPRESA: values.firm }, now);
  return text.replace(/\r\n/g, '\n').replace(/\n[ \t]*(?:\n[ \t]*)+\n/g, '\n\n').replace(/^(?:[ \t]*\n)+/, '').replace(/(?:\n[ \t]*)+$/, '');
}

/** A subject is one line: a value with a line break must not start the body (header injection). */
export function renderMailSubject(template: string, values: MailTemplateValues, now: Date): string {
  return renderMailTemplate(template, values, now).replace(/[\r\n]+/g, ' ').trim().slice(0, 300);
}
