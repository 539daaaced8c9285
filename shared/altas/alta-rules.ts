import { toIsoDate } from '../forms/fields.ts';
import { compactIdentifier } from '../validation/identifiers.ts';
import { FIELD } from './form-definition.ts';

/**
 * What makes an alta one a gestoría must never file, across fields (issue 44): the worker's age on the
 * fecha de alta, the order of its dates, the coeficiente de parcialidad against the jornada, and the key
 * that tells the same alta sent twice. The company's form checks them before sending, the advisor's
 * modals before saving, and the server on every write (shared/altas/check-values.ts).
 *
 * Sources: minimum working age 16 (Estatuto de los Trabajadores, art. 6); the alta is filed before work
 * starts (RD 84/1996, art. 32), so the contract cannot start before the fecha de alta; RED's coeficiente
 * de tiempo parcial is in thousandths, 1-999 for part time (research notes, external-systems.md §2), and
 * a full-time contract carries none (or 1000, the whole day).
 */

export const MINIMUM_WORKING_AGE = 16;

export const underAgeMessage = (age: number) => `Tendría ${age} años en la fecha de alta: la edad mínima para trabajar es ${MINIMUM_WORKING_AGE}`;
export const BORN_AFTER_ALTA_MESSAGE = 'La fecha de nacimiento es posterior a la fecha de alta';
export const START_BEFORE_ALTA_MESSAGE = 'El contrato no puede empezar antes de la fecha de alta';
export const FULL_TIME_COEFFICIENT_MESSAGE = 'Con jornada completa el coeficiente de parcialidad va vacío (o 1000 ‰)';
export const PART_TIME_COEFFICIENT_MISSING_MESSAGE = 'Con jornada parcial indica el coeficiente de parcialidad: de 1 a 999 ‰ (500 es media jornada)';
export const PART_TIME_COEFFICIENT_RANGE_MESSAGE = 'Con jornada parcial el coeficiente de parcialidad va de 1 a 999 ‰ (1000 ‰ es jornada completa)';
export const DUPLICATE_ALTA_MESSAGE = 'Ya se ha enviado un alta de esta persona con la misma fecha de alta y cuenta de cotización';

/**
 * The messages each field can get from these rules before it is sent (a form keeps room for them under
 * the field, so they appear without moving what is below). The duplicate comes from the server only.
 */
export const ALTA_RULE_MESSAGES: Readonly<Record<string, readonly string[]>> = {
  [FIELD.fechaNacimiento]: [underAgeMessage(15), BORN_AFTER_ALTA_MESSAGE],
  [FIELD.fechaInicio]: [START_BEFORE_ALTA_MESSAGE],
  [FIELD.coeficiente]: [FULL_TIME_COEFFICIENT_MESSAGE, PART_TIME_COEFFICIENT_MISSING_MESSAGE, PART_TIME_COEFFICIENT_RANGE_MESSAGE],
};

interface Day {
  year: number;
  month: number;
  day: number;
}

/** A value as a calendar day ('1990-05-31', '31/05/1990', a Date), or null. */
function dayOf(value: unknown): Day | null {
  const iso = toIsoDate(value);
  if (iso === null) return null;
  const [year = 0, month = 0, day = 0] = iso.split('-').map(Number);
  return { year, month, day };
}

const dayNumber = ({ year, month, day }: Day) => Date.UTC(year, month - 1, day) / 86_400_000;
const textOf = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** Whole years from birth to a day (a birthday on that very day counts; 29 February counts on 1 March). */
export function ageOn(birth: Day, day: Day): number {
  const hadBirthday = day.month > birth.month || (day.month === birth.month && day.day >= birth.day);
  return day.year - birth.year - (hadBirthday ? 0 : 1);
}

/** The coefficient's problem for the jornada ('completa' | 'parcial'), or null. A value that is not a number is the field's own format error. */
export function coefficientProblem(jornada: unknown, coefficient: unknown): string | null {
  const text = textOf(coefficient);
  if (text !== '' && !/^\d+$/.test(text)) return null;
  if (jornada === 'completa') return text === '' || Number(text) === 1000 ? null : FULL_TIME_COEFFICIENT_MESSAGE;
  if (jornada === 'parcial') {
    if (text === '') return PART_TIME_COEFFICIENT_MISSING_MESSAGE;
    return Number(text) >= 1 && Number(text) <= 999 ? null : PART_TIME_COEFFICIENT_RANGE_MESSAGE;
  }
  return null;
}

/**
 * The rules across fields that the values break, by the field that shows the message: the age (16 or
 * more on the fecha de alta) and the birth before the alta on 'Fecha Nacimiento'; the contract's start
 * not before the alta on 'Fecha Inicio'; the coefficient against the jornada on 'Coeficiente
 * Parcialidad'. A rule whose fields are empty or not dates yet is left to those fields' own checks.
 */
export function altaRuleErrors(values: Readonly<Record<string, unknown>>): Record<string, string> {
  const errors: Record<string, string> = {};
  const alta = dayOf(values[FIELD.fechaAlta]);
  const birth = dayOf(values[FIELD.fechaNacimiento]);
  const start = dayOf(values[FIELD.fechaInicio]);
  if (alta !== null && birth !== null) {
    if (dayNumber(birth) >= dayNumber(alta)) errors[FIELD.fechaNacimiento] = BORN_AFTER_ALTA_MESSAGE;
    else if (ageOn(birth, alta) < MINIMUM_WORKING_AGE) errors[FIELD.fechaNacimiento] = underAgeMessage(ageOn(birth, alta));
  }
  if (alta !== null && start !== null && dayNumber(start) < dayNumber(alta)) errors[FIELD.fechaInicio] = START_BEFORE_ALTA_MESSAGE;
  if (FIELD.jornada in values || FIELD.coeficiente in values) {
    const coefficient = coefficientProblem(values[FIELD.jornada], values[FIELD.coeficiente]);
    if (coefficient !== null) errors[FIELD.coeficiente] = coefficient;
  }
  return errors;
}

/**
 * What makes two altas the same one: the worker's document, the fecha de alta and the CCC, written the
 * same way whatever the case and separators ('12345678-z' is '12345678Z'). Null while one is missing.
 */
export function altaIdentity(values: Readonly<Record<string, unknown>>): string | null {
  const document = compactIdentifier(textOf(values[FIELD.nif]));
  const alta = toIsoDate(values[FIELD.fechaAlta]);
  const ccc = compactIdentifier(textOf(values[FIELD.ccc]));
  return document === '' || alta === null || ccc === '' ? null : `${document}|${alta}|${ccc}`;
}
