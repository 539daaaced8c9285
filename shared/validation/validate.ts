import { PASSWORD_MESSAGE, PASSWORD_PATTERN } from '../api/fields.ts';
import { isNumeric, isValidDate, isValidEmail, isValidName, isValidSpanishPhone, isValidUrl } from './formats.ts';
import {
  compactIdentifier, documentLetterProblem, isValidCcc, isValidCif, isValidIban, isValidNaf, isValidNafControl, isValidNie, isValidNif, isValidPassport,
} from './identifiers.ts';

export interface ValidationResult {
  valid: boolean;
  message?: string;
}

/** A custom rule: the value as text must match the pattern. */
export interface PatternRule {
  pattern: RegExp | string;
  message?: string;
}

/** A validator name, names joined with '|' (any one passing is enough), or a pattern rule. */
export type ValidationRule = string | PatternRule;

export const DEFAULT_MESSAGE = 'El formato introducido no es válido';
export const MANDATORY_MESSAGE = 'Este campo es obligatorio';

interface Validator {
  test: (value: unknown) => boolean;
  message: string;
  /** A more precise message for some failing values (a NIF whose letter is wrong); null keeps `message`. */
  problem?: (text: string) => string | null;
}

/** Applies a text check to strings (and numbers, which forms often hold as such). */
const onText = (check: (text: string) => boolean) => (value: unknown): boolean =>
  (typeof value === 'string' || typeof value === 'number') && check(String(value));

/** The wrong-letter message of a NIF-shaped (8 digits and a letter) or NIE-shaped (X/Y/Z, 7 digits, letter) value. */
const letterOf = (shapes: 'nif' | 'nie' | 'both') => (text: string): string | null => {
  const compact = compactIdentifier(text);
  const nifShape = /^\d{8}[A-Z]$/.test(compact);
  const nieShape = /^[XYZ]\d{7}[A-Z]$/.test(compact);
  if ((nifShape && shapes !== 'nie') || (nieShape && shapes !== 'nif')) return documentLetterProblem(compact);
  return null;
};

/** Spec §5: empty, whitespace-only, empty array or empty object fail. */
export function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  if (value instanceof Date) return Number.isNaN(value.getTime());
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

/** The spec's generic validator table, keyed by lowercase name. */
const VALIDATORS: Record<string, Validator> = {
  mandatory: { test: (value) => !isEmptyValue(value), message: MANDATORY_MESSAGE },
  email: { test: onText(isValidEmail), message: 'Introduce una dirección de correo electrónico válida' },
  password: { test: onText((text) => PASSWORD_PATTERN.test(text)), message: PASSWORD_MESSAGE },
  nif: { test: onText(isValidNif), message: 'Introduce un NIF válido', problem: letterOf('nif') },
  nie: { test: onText(isValidNie), message: 'Introduce un NIE válido', problem: letterOf('nie') },
  nienif: { test: onText((text) => isValidNif(text) || isValidNie(text)), message: 'Introduce un NIF o NIE válido', problem: letterOf('both') },
  nienifpassport: {
    test: onText((text) => isValidNif(text) || isValidNie(text) || isValidPassport(text)),
    message: 'Introduce un NIF, NIE o pasaporte válido',
    problem: letterOf('both'),
  },
  // Not in the spec's table: a holder's tax id as the administration's portals take it (person or company).
  nienifcif: {
    test: onText((text) => isValidNif(text) || isValidNie(text) || isValidCif(text)),
    message: 'Introduce un NIF, NIE o CIF válido',
    problem: letterOf('both'),
  },
  passport: { test: onText(isValidPassport), message: 'Introduce un pasaporte válido' },
  naf: { test: onText(isValidNaf), message: 'El NAF debe tener 12 dígitos numéricos' },
  // Not in the spec's table: the NAF with its control digits, as Sistema RED checks it (robots use it).
  nafcontrol: {
    test: onText(isValidNafControl),
    message: 'Introduce un NAF válido: 12 dígitos y los dos últimos deben ser los de control',
  },
  iban: { test: onText(isValidIban), message: 'Introduce un IBAN válido' },
  // Not in the spec's table: the contribution account code used by company forms.
  ccc: { test: onText(isValidCcc), message: 'Introduce un CCC válido' },
  // Not in the spec's table: what a worker's alta needs for Sistema RED (issue 23).
  // Per mil of the full working day: 1-999 part time, 1000 full time (the working day's rule, shared/altas/alta-rules.ts, says which applies).
  parcialidad: { test: onText((text) => /^\d{1,4}$/.test(text.trim()) && Number(text) >= 1 && Number(text) <= 1000), message: 'El coeficiente de parcialidad es un número de 1 a 1000 (‰)' },
  convenio: { test: onText((text) => /^\d{14}$/.test(text.trim())), message: 'El código de convenio debe tener 14 dígitos' },
  cno: { test: onText((text) => /^\d{4}$/.test(text.trim())), message: 'La ocupación (CNO) debe tener 4 dígitos' },
  number: { test: isNumeric, message: 'El valor introducido no es un número' },
  tel: { test: onText(isValidSpanishPhone), message: 'Introduce un número de teléfono válido' },
  date: { test: isValidDate, message: 'Introduce una fecha válida' },
  url: { test: onText(isValidUrl), message: 'Introduce una URL con el formato correcto' },
  name: { test: onText(isValidName), message: DEFAULT_MESSAGE },
  // 'default' carries the fallback message only; as a name it has no rule of its own, so it passes.
  default: { test: () => true, message: DEFAULT_MESSAGE },
};

export const VALIDATOR_NAMES = Object.keys(VALIDATORS);

function validateByName(value: unknown, name: string): ValidationResult {
  const validator = VALIDATORS[name.trim().toLowerCase()];
  if (validator === undefined || validator.test(value)) return { valid: true };
  const problem = validator.problem && (typeof value === 'string' || typeof value === 'number') ? validator.problem(String(value)) : null;
  return { valid: false, message: problem ?? validator.message };
}

function validatePattern(value: unknown, rule: PatternRule): ValidationResult {
  // A fresh RegExp so that a caller's /g or /y flag cannot leave lastIndex state behind.
  const pattern = typeof rule.pattern === 'string' ? new RegExp(rule.pattern) : new RegExp(rule.pattern.source, rule.pattern.flags);
  const text = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  return pattern.test(text) ? { valid: true } : { valid: false, message: rule.message ?? DEFAULT_MESSAGE };
}

/**
 * The message a rule shows when it fails (for 'a|b', the first one's, as validate does); undefined
 * for names with no rule. Lets a form keep room for an error before it appears. A NIF or NIE whose
 * letter is wrong gets a more precise message instead (identifiers.ts NIF_LETTER_MESSAGE, NIE_LETTER_MESSAGE).
 */
export function ruleMessage(rule: ValidationRule): string | undefined {
  if (typeof rule !== 'string') return rule.message ?? DEFAULT_MESSAGE;
  const first = rule.split('|')[0] ?? '';
  const validator = VALIDATORS[first.trim().toLowerCase()];
  return validator === undefined || first.trim().toLowerCase() === 'default' ? undefined : validator.message;
}

/**
 * Checks a value against a rule (spec §5 generic validators). Unknown names pass. With
 * alternatives 'a|b' the value is valid when any one passes; otherwise the first one's message is
 * shown. Emptiness is the 'mandatory' validator's business: the format validators fail on ''.
 */
export function validate(value: unknown, rule: ValidationRule): ValidationResult {
  if (typeof rule !== 'string') return validatePattern(value, rule);
  const results = rule.split('|').map((name) => validateByName(value, name));
  return results.find((result) => result.valid) ?? results[0] ?? { valid: true };
}
