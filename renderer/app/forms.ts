import { useCallback, useState } from 'react';
import { validate } from '../../shared/validation/index.ts';
import type { ValidationRule } from '../../shared/validation/index.ts';
import type { FieldIssue } from '../../shared/api/errors.ts';
import type { HttpError } from '../api/baseApi.ts';
import { es } from '../i18n/es.ts';

/** Per field: 'mandatory' first, the format rules only once something is typed (spec §5). */
export type FormRules<Field extends string> = Record<Field, readonly ValidationRule[]>;

export function fieldError(value: string, rules: readonly ValidationRule[]): string | undefined {
  for (const rule of rules) {
    if (rule !== 'mandatory' && value.trim() === '') continue;
    const result = validate(value, rule);
    if (!result.valid) return result.message;
  }
  return undefined;
}

export type FieldErrors<Field extends string> = Partial<Record<Field, string>>;

/**
 * A small controlled form: values, per-field errors on blur and on submit, and the server's field
 * issues mapped onto the same fields so they show next to the inputs.
 */
export function useForm<Field extends string>(initial: Record<Field, string>, rules: FormRules<Field>) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});

  const setValue = useCallback((field: Field, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
  }, []);

  const validateField = useCallback(
    (field: Field) => setErrors((current) => ({ ...current, [field]: fieldError(values[field], rules[field]) })),
    [values, rules],
  );

  /** Validates everything; true when the form may be sent. */
  const validateAll = useCallback((): boolean => {
    const next: FieldErrors<Field> = {};
    for (const field of Object.keys(rules) as Field[]) next[field] = fieldError(values[field], rules[field]);
    setErrors(next);
    return Object.values(next).every((message) => message === undefined);
  }, [values, rules]);

  /** Puts the server's issues next to their fields; returns the message of any issue that has no field here. */
  const applyServerError = useCallback(
    (error: unknown): string | undefined => {
      const http = asHttpError(error);
      const issues: FieldIssue[] = http?.data?.issues ?? [];
      const next: FieldErrors<Field> = {};
      const unplaced: string[] = [];
      for (const issue of issues) {
        if (issue.path in rules) next[issue.path as Field] = issue.message;
        else unplaced.push(issue.message);
      }
      setErrors(next);
      if (issues.length > 0 && unplaced.length === 0) return es.auth.checkFields;
      return unplaced[0] ?? http?.message ?? es.common.unexpectedError;
    },
    [rules],
  );

  const reset = useCallback(() => {
    setValues(initial);
    setErrors({});
  }, [initial]);

  return { values, errors, setValue, validateField, validateAll, applyServerError, reset };
}

export function asHttpError(error: unknown): HttpError | undefined {
  if (typeof error === 'object' && error !== null && 'status' in error && 'message' in error) return error as HttpError;
  return undefined;
}
