/**
 * Spanish identifier checks (research: external-systems.md §6, after python-stdnum).
 * Inputs are compacted first: case, spaces and the usual separators (- / .) do not matter.
 */

const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

/** Uppercases and drops whitespace and the separators people type inside identifiers. */
export function compactIdentifier(value: string): string {
  return value.replace(/[\s./-]/g, '').toUpperCase();
}

/** Remainder of a long digit string modulo 97, without losing precision. */
function mod97(digits: string): number {
  let remainder = 0;
  for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  return remainder;
}

/** The mod-23 check letter for a DNI number (0-99999999). */
export function nifLetter(number: number): string {
  return DNI_LETTERS.charAt(number % 23);
}

/** NIF of a person with DNI: 8 digits plus the mod-23 letter. */
export function isValidNif(value: string): boolean {
  const match = /^(\d{8})([A-Z])$/.exec(compactIdentifier(value));
  return match !== null && nifLetter(Number(match[1])) === match[2];
}

/** NIE: X, Y or Z (read as 0, 1, 2), 7 digits and the mod-23 letter over all 8 digits. */
export function isValidNie(value: string): boolean {
  const match = /^([XYZ])(\d{7})([A-Z])$/.exec(compactIdentifier(value));
  if (match === null) return false;
  const [, prefix = '', digits = '', letter] = match;
  return nifLetter(Number(String('XYZ'.indexOf(prefix)) + digits)) === letter;
}

export const NIF_LETTER_MESSAGE = 'La letra del NIF no es correcta';
export const NIE_LETTER_MESSAGE = 'La letra del NIE no es correcta';

/**
 * When a document number has the shape of a NIF (8 digits and a letter) or a NIE (X, Y or Z, 7 digits
 * and a letter) but its check letter does not match, the message that says so; null otherwise (a valid
 * number, or one of another shape, whose message is the validator's own).
 */
export function documentLetterProblem(value: string): string | null {
  const compact = compactIdentifier(value);
  if (/^\d{8}[A-Z]$/.test(compact)) return isValidNif(compact) ? null : NIF_LETTER_MESSAGE;
  if (/^[XYZ]\d{7}[A-Z]$/.test(compact)) return isValidNie(compact) ? null : NIE_LETTER_MESSAGE;
  return null;
}

/** CIF entity letters; K, L, M (NIF of persons without DNI) and X, Y, Z (NIE) are not entities. */
const CIF_ENTITY_LETTERS = 'ABCDEFGHJNPQRSUVW';
/** Entities whose control is always a letter (public bodies, foreign and non-resident ones) or always a digit (companies). */
const CIF_LETTER_CONTROL = 'NPQRSW';
const CIF_DIGIT_CONTROL = 'ABEH';

/** The CIF control for 7 digits: 0-9, written as a digit or as the letter 'JABCDEFGHI'[c]. */
export function cifControl(digits: string): number {
  let sum = 0;
  [...digits].forEach((character, index) => {
    const digit = Number(character);
    // 1st, 3rd, 5th, 7th digits count doubled, with the digits of the product added up.
    if (index % 2 === 0) sum += Math.floor((digit * 2) / 10) + ((digit * 2) % 10);
    else sum += digit;
  });
  return (10 - (sum % 10)) % 10;
}

/**
 * CIF (NIF of an entity, e.g. B12345674, Q2826000H): entity letter, 7 digits and the control.
 * N, P, Q, R, S and W must end in the letter; A, B, E and H in the digit; the rest may use either.
 */
export function isValidCif(value: string): boolean {
  const match = /^([A-Z])(\d{7})([0-9A-J])$/.exec(compactIdentifier(value));
  if (match === null) return false;
  const [, entity = '', digits = '', written = ''] = match;
  if (!CIF_ENTITY_LETTERS.includes(entity)) return false;
  const control = cifControl(digits);
  const asDigit = String(control);
  const asLetter = 'JABCDEFGHI'.charAt(control);
  if (CIF_LETTER_CONTROL.includes(entity)) return written === asLetter;
  if (CIF_DIGIT_CONTROL.includes(entity)) return written === asDigit;
  return written === asDigit || written === asLetter;
}

/**
 * Passport number: 5 to 15 letters or digits (countries differ too much for more). Unlike the
 * other identifiers it is not compacted: separators are not part of any passport number, so
 * 'AB-12345' is refused rather than silently read as 'AB12345'.
 */
export function isValidPassport(value: string): boolean {
  return /^[A-Z0-9]{5,15}$/.test(value.trim().toUpperCase());
}

/** NAF (social security number) in the validator's loose sense: exactly 12 digits. */
export function isValidNaf(value: string): boolean {
  return /^\d{12}$/.test(compactIdentifier(value));
}

/**
 * NAF with its control digits: PP + NNNNNNNN + DD, DD = base % 97 where base is
 * N + PP * 10^7 when N < 10^7, else the number PP‖N.
 */
export function isValidNafControl(value: string): boolean {
  const compact = compactIdentifier(value);
  if (!/^\d{12}$/.test(compact)) return false;
  const province = Number(compact.slice(0, 2));
  const number = Number(compact.slice(2, 10));
  const base = number < 10_000_000 ? number + province * 10_000_000 : Number(compact.slice(0, 10));
  return base % 97 === Number(compact.slice(10));
}

/** CCC (código cuenta de cotización): 11 digits, the last two = first nine % 97. */
export function isValidCcc(value: string): boolean {
  const compact = compactIdentifier(value);
  return /^\d{11}$/.test(compact) && mod97(compact.slice(0, 9)) === Number(compact.slice(9));
}

/** Spanish IBAN: ES + 22 digits, and the ISO 13616 mod-97 check gives 1. */
export function isValidIban(value: string): boolean {
  const compact = compactIdentifier(value);
  if (!/^ES\d{22}$/.test(compact)) return false;
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  const digits = rearranged.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
  return mod97(digits) === 1;
}

export type DocumentIdType = 'DNI' | 'NIE' | 'PASSPORT';

/**
 * Spec §5 FIE parsing: the ID type is read off the shape of the NIF text
 * (DNI 8 digits + letter, NIE X/Y/Z + 7 digits + letter, passport 2 letters + 6 digits).
 * Only the shape counts here; check letters are the validators' job.
 */
export function inferDocumentIdType(nif: string): DocumentIdType | null {
  const compact = compactIdentifier(nif);
  if (/^\d{8}[A-Z]$/.test(compact)) return 'DNI';
  if (/^[XYZ]\d{7}[A-Z]$/.test(compact)) return 'NIE';
  if (/^[A-Z]{2}\d{6}$/.test(compact)) return 'PASSPORT';
  return null;
}

/** The 'Tipo de documento' codes of registrations (spec §3, §9). */
export const DOCUMENT_TYPE_CODES = { DNI: 1, PASSPORT: 2, NIE: 6 } as const satisfies Record<DocumentIdType, number>;
export type DocumentTypeCode = (typeof DOCUMENT_TYPE_CODES)[DocumentIdType];

export const DOCUMENT_TYPE_LABELS: Record<DocumentTypeCode, string> = {
  1: 'D.N.I./N.I.F.',
  2: 'Pasaporte',
  6: 'N.I.E.',
};

/** Code for a NIF text, or null when its shape is none of the known ones. */
export function documentTypeCodeFor(nif: string): DocumentTypeCode | null {
  const type = inferDocumentIdType(nif);
  return type === null ? null : DOCUMENT_TYPE_CODES[type];
}
