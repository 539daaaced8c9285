export {
  BUILT_IN_FIELDS_ORDER, DEFAULT_FORM_PAGES, FIELD, GRUPOS_COTIZACION, builtInFields, effectiveDefinition, effectiveFields, fieldOverrideErrors, formPagesErrors,
} from './form-definition.ts';
export type { FieldOverride, FieldOverrides } from './form-definition.ts';
export {
  CCC_NOT_OF_COMPANY_MESSAGE, DOCUMENT_MISMATCH_MESSAGE, INVALID_OPTION_MESSAGE, INVALID_VALUE_MESSAGE, UNKNOWN_FIELD_MESSAGE,
  groupValueErrors, mergeGroupValues, normalizeSubmissionValues, submissionValueErrors,
} from './check-values.ts';
export type { ValuesCheckContext } from './check-values.ts';
export { incompleteProblem, submissionTitle, toA3AltaRow, toRedAltaRecord, workerName } from './records.ts';
export type { SubmissionForRecords } from './records.ts';
