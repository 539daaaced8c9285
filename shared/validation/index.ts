export { DEFAULT_MESSAGE, MANDATORY_MESSAGE, VALIDATOR_NAMES, isEmptyValue, ruleMessage, validate } from './validate.ts';
export type { PatternRule, ValidationResult, ValidationRule } from './validate.ts';
export {
  isNumeric, isValidDate, isValidEmail, isValidName, isValidSpanishPhone, isValidUrl, parseCalendarDate,
} from './formats.ts';
export type { CalendarDate } from './formats.ts';
export {
  DOCUMENT_TYPE_CODES, DOCUMENT_TYPE_LABELS, NIE_LETTER_MESSAGE, NIF_LETTER_MESSAGE, compactIdentifier, documentLetterProblem, documentTypeCodeFor, inferDocumentIdType,
  isValidCcc, isValidCif, isValidIban, isValidNaf, isValidNafControl, isValidNie, isValidNif, isValidPassport, nifLetter,
} from './identifiers.ts';
export type { DocumentIdType, DocumentTypeCode } from './identifiers.ts';
