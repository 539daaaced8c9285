export {
  fieldError, formFieldError, normalizeFieldDefinition, normalizeFieldValue, ruleForField, toIsoDate,
} from './fields.ts';
export type { FieldCheck, FormFieldDefinition, FormFieldType, ValidValue } from './fields.ts';
export {
  KEY_VALUE_ROW_MESSAGE, addKeyValueRow, areKeyValueRowsValid, keyValueRowErrors, keyValueRowsToSave,
  removeKeyValueRow, updateKeyValueRow,
} from './key-value.ts';
export type { KeyValueRow } from './key-value.ts';
export {
  DEFAULT_PHONE_PREFIX, FORM_FLOWS_URL_PREFIX, FORM_URL_FORMAT_MESSAGE, SEARCHABLE_THRESHOLD, formConfigSlug, isArgumentsObject, isSearchable,
  joinPhone, splitPhone, toFormConfigUrl, validateFormConfig,
} from './inputs.ts';
export type { FormConfigInput, PhoneParts } from './inputs.ts';
