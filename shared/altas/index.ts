export {
  BUILT_IN_FIELDS_ORDER, DEFAULT_FORM_PAGES, FIELD, GRUPOS_COTIZACION, builtInFields, effectiveDefinition, effectiveFields, fieldOverrideErrors, formPagesErrors,
} from './form-definition.ts';
export type { FieldOverride, FieldOverrides } from './form-definition.ts';
export {
  CCC_NOT_OF_COMPANY_MESSAGE, DOCUMENT_MISMATCH_MESSAGE, INVALID_OPTION_MESSAGE, INVALID_VALUE_MESSAGE, UNKNOWN_FIELD_MESSAGE,
  groupRuleErrors, groupValueErrors, mergeGroupValues, normalizeSubmissionValues, submissionValueErrors,
} from './check-values.ts';
export type { ValuesCheckContext } from './check-values.ts';
export { formatAltaDay, incompleteProblem, submissionTitle, toA3AltaRow, toRedAltaRecord, workerName } from './records.ts';
export type { SubmissionForRecords } from './records.ts';
export {
  ALTA_RULE_MESSAGES, BORN_AFTER_ALTA_MESSAGE, DUPLICATE_ALTA_MESSAGE, FULL_TIME_COEFFICIENT_MESSAGE, MINIMUM_WORKING_AGE, PART_TIME_COEFFICIENT_MISSING_MESSAGE,
  PART_TIME_COEFFICIENT_RANGE_MESSAGE, START_BEFORE_ALTA_MESSAGE, ageOn, altaIdentity, altaRuleErrors, coefficientProblem, underAgeMessage,
} from './alta-rules.ts';
export { CCC_INVALID_MESSAGE, CCC_KEY_MISSING_MESSAGE, CCC_LABEL_MISSING_MESSAGE, CCC_ROW_EMPTY_MESSAGE, cccRowProblems } from './ccc-rows.ts';
export type { CccRowProblem } from './ccc-rows.ts';
