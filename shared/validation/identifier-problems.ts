import { cifControl, compactIdentifier, isValidCcc, isValidCif, isValidIban, isValidNaf, isValidNafControl, isValidNie, isValidNif, nifLetter } from './identifiers.ts';

/**
 * What is wrong with an identifier, in Spanish, with the value it should have where that can be
 * worked out ('La letra de control no coincide: debería ser Z (12345678Z)'). The validators in
 * identifiers.ts say yes or no; this says why, for whoever has to fix the cell.
 */

/** Remainder of a long digit string modulo 97. */
function mod97(digits: string): number {
  let remainder = 0;
  for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  return remainder;
}

const two = (value: number) => String(value).padStart(2, '0');
const characters = (count: number) => (count === 1 ? '1 carácter' : `${count} caracteres`);
const digitCount = (count: number) => (count === 1 ? '1 cifra' : `${count} cifras`);

const NIF_NIE_SHAPE = 'un NIF tiene 8 cifras y una letra (12345678Z) y un NIE, X, Y o Z, 7 cifras y una letra (X1234567L)';

/** A DNI/NIF of a person or a NIE: the check letter, a missing letter or zero, or the shape. */
function nifOrNieProblem(compact: string, accepts: 'nif' | 'nie' | 'both'): string {
  const nif = /^(\d{1,8})([A-Z]?)$/.exec(compact);
  if (nif !== null && accepts !== 'nie') {
    const [, digits = '', letter = ''] = nif;
    const number = digits.padStart(8, '0');
    const expected = `${number}${nifLetter(Number(number))}`;
    if (digits.length === 8 && letter === '') return `Falta la letra de control: debería ser ${expected}`;
    if (digits.length === 8) return `La letra de control no coincide: debería ser ${expected.slice(-1)} (${expected})`;
    if (letter !== '' && letter === expected.slice(-1)) {
      return `${digits.length === 7 ? 'Falta el cero inicial' : 'Faltan los ceros iniciales'} del DNI: debería ser ${expected}`;
    }
    if (letter !== '') return `El DNI tiene ${digitCount(digits.length)} y debe tener 8 y la letra de control (12345678Z)`;
  }
  const nie = /^([XYZ])(\d{7})([A-Z]?)$/.exec(compact);
  if (nie !== null && accepts !== 'nif') {
    const [, prefix = '', digits = '', letter = ''] = nie;
    const expected = `${prefix}${digits}${nifLetter(Number(String('XYZ'.indexOf(prefix)) + digits))}`;
    if (letter === '') return `Falta la letra de control: debería ser ${expected}`;
    return `La letra de control no coincide: debería ser ${expected.slice(-1)} (${expected})`;
  }
  const cif = /^([A-Z])(\d{7})([0-9A-J])$/.exec(compact);
  if (cif !== null && 'ABCDEFGHJNPQRSUVW'.includes(cif[1] ?? '')) {
    if (isValidCif(compact)) return 'Es el NIF de una entidad (CIF), no el NIF o NIE de una persona';
    const control = cifControl(cif[2] ?? '');
    const options = 'NPQRSW'.includes(cif[1] ?? '') ? 'JABCDEFGHI'.charAt(control)
      : 'ABEH'.includes(cif[1] ?? '') ? String(control) : `${control} o ${'JABCDEFGHI'.charAt(control)}`;
    return `Parece el NIF de una entidad (CIF) y su carácter de control no coincide: debería ser ${options}`;
  }
  const shape = accepts === 'nif' ? 'un NIF tiene 8 cifras y una letra (12345678Z)'
    : accepts === 'nie' ? 'un NIE tiene X, Y o Z, 7 cifras y una letra (X1234567L)' : NIF_NIE_SHAPE;
  if (/[^A-Z0-9]/.test(compact)) return `Tiene caracteres que no van en un documento: ${shape}`;
  return `Formato no válido (${characters(compact.length)}): ${shape}`;
}

/** NAF: 12 digits (province, number, 2 control digits); `control` checks the last two. */
function nafProblem(compact: string, control: boolean): string {
  if (/\D/.test(compact)) return 'El NAF solo lleva cifras: 12 (2 de provincia, 8 de número y 2 de control)';
  if (compact.length !== 12) return `El NAF debe tener 12 cifras y tiene ${compact.length}`;
  if (!control) return 'El NAF debe tener 12 cifras';
  const province = Number(compact.slice(0, 2));
  const number = Number(compact.slice(2, 10));
  const base = number < 10_000_000 ? number + province * 10_000_000 : Number(compact.slice(0, 10));
  const expected = two(base % 97);
  return `Los dígitos de control del NAF no coinciden: deberían ser ${expected} (${compact.slice(0, 10)}${expected})`;
}

/** CCC: 11 digits, the last two the first nine modulo 97. */
function cccProblem(compact: string): string {
  if (/\D/.test(compact)) return 'El CCC solo lleva cifras: 11 (2 de provincia, 7 de número y 2 de control)';
  if (compact.length !== 11) return `El CCC debe tener 11 cifras y tiene ${compact.length}`;
  const expected = two(mod97(compact.slice(0, 9)));
  return `Los dígitos de control del CCC no coinciden: deberían ser ${expected} (${compact.slice(0, 9)}${expected})`;
}

/** The two IBAN check digits for a Spanish account number (20 digits). */
function ibanCheckDigits(account: string): string {
  return two(98 - mod97(`${account}142800`));
}

/** Spanish IBAN: ES, 2 check digits and the 20-digit account number. */
function ibanProblem(compact: string): string {
  if (/^\d{20}$/.test(compact)) return `Falta el principio del IBAN: debería ser ES${ibanCheckDigits(compact)}${compact}`;
  if (/^[A-Z]{2}/.test(compact) && !compact.startsWith('ES')) return `Solo se comprueban IBAN españoles, que empiezan por ES (este empieza por ${compact.slice(0, 2)})`;
  if (!/^ES\d*$/.test(compact)) return 'Un IBAN español es ES seguido de 22 cifras, sin otras letras';
  if (compact.length !== 24) return `Un IBAN español tiene 24 caracteres (ES y 22 cifras) y este tiene ${compact.length}`;
  const expected = ibanCheckDigits(compact.slice(4));
  return `Los dígitos de control del IBAN no coinciden: deberían ser ${expected} (ES${expected}${compact.slice(4)})`;
}

const PROBLEMS: Record<string, { valid: (compact: string) => boolean; problem: (compact: string) => string }> = {
  nif: { valid: isValidNif, problem: (compact) => nifOrNieProblem(compact, 'nif') },
  nie: { valid: isValidNie, problem: (compact) => nifOrNieProblem(compact, 'nie') },
  nienif: { valid: (compact) => isValidNif(compact) || isValidNie(compact), problem: (compact) => nifOrNieProblem(compact, 'both') },
  naf: { valid: isValidNaf, problem: (compact) => nafProblem(compact, false) },
  nafcontrol: { valid: isValidNafControl, problem: (compact) => nafProblem(compact, true) },
  ccc: { valid: isValidCcc, problem: cccProblem },
  iban: { valid: isValidIban, problem: ibanProblem },
};

/**
 * Why `value` fails the identifier rule `rule` ('nienif', 'nafcontrol', 'ccc', 'iban', 'nif', 'nie',
 * 'naf'; for 'a|b' the first name's reason), or null when it passes or the rule is none of these.
 */
export function identifierProblem(value: string, rule: string): string | null {
  const names = rule.split('|').map((name) => name.trim().toLowerCase());
  const compact = compactIdentifier(value);
  if (compact === '') return null;
  const checks = names.map((name) => PROBLEMS[name]);
  if (checks.some((check) => check === undefined || check.valid(compact))) return null;
  return checks[0]?.problem(compact) ?? null;
}
