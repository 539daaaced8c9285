import { useCallback, useState } from 'react';
import { fieldError } from '#shared/forms/index.ts';
import type { ValidationRule } from '#shared/validation/index.ts';
import type { FieldIssue } from '#shared/api/errors.ts';
import type { HttpError } from '../api/baseApi.ts';
import { es } from '../i18n/es.ts';

/** Per field: whether it must be filled, and the format its value must have once something is typed (spec §5). */
export interface FieldRule {
  required?: boolean;
  rule?: ValidationRule;
}
export type FormRules<Field extends string> = Record<Field, FieldRule>;

export type FieldErrors<Field extends string> = Partial<Record<Field, string>>;

/** The format is always checked when there is a value, so formatRequired is on for every field here. */
function checkField(value: string, { required, rule }: FieldRule): string | undefined {
  return fieldError({ value, required, formatRequired: true, rule }) ?? undefined;
}

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
    (field: Field) => setErrors((current) => ({ ...current, [field]: checkField(values[field], rules[field]) })),
    [values, rules],
  );

  /** Validates everything; true when the form may be sent. */
  const validateAll = useCallback((): boolean => {
    const next: FieldErrors<Field> = {};
    for (const field of Object.keys(rules) as Field[]) next[field] = checkField(values[field], rules[field]);
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
