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

/** What the wizard's preview fills the placeholders with. */
export const SAMPLE_MAIL_VALUES: MailTemplateValues = {
  robot: 'Validar identificadores',
  result: 'Completado: 1.250 filas comprobadas, 3 con errores',
  files: ['trabajadores-validado.xlsx'],
  firm: 'Asesoría Ejemplo',
};

export function renderMailTemplate(template: string, values: MailTemplateValues, now: Date): string {
  return renderDocumentTemplate(template, { ROBOT: values.robot, RESULTADO: values.result, ARCHIVOS: [...values.files], EMPRESA: values.firm }, now);
}

/** A subject is one line: a value with a line break must not start the body (header injection). */
export function renderMailSubject(template: string, values: MailTemplateValues, now: Date): string {
  return renderMailTemplate(template, values, now).replace(/[\r\n]+/g, ' ').trim().slice(0, 300);
}
