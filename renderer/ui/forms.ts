import { useCallback, useRef } from 'react';
import { useForm } from 'react-hook-form';
import type { ChangeEvent, FormEvent } from 'react';
import type { DefaultValues, FieldErrors as HookFieldErrors, Path, Resolver, SubmitHandler } from 'react-hook-form';
import { fieldError } from '#shared/forms/index.ts';
import { MANDATORY_MESSAGE, ruleMessage } from '#shared/validation/index.ts';
import type { ValidationRule } from '#shared/validation/index.ts';
import type { FieldIssue } from '#shared/api/errors.ts';
import type { HttpError } from '../api/baseApi.ts';
import { es } from '../i18n/es-core.ts';

/**
 * Per field (spec §5): whether it must be filled, the format its value must have, and whether that
 * format is checked (formatRequired, on unless a form says otherwise: a typed value is checked).
 */
export interface FieldRule {
  required?: boolean;
  formatRequired?: boolean;
  rule?: ValidationRule;
  /** What an empty required field says instead of the generic message (spec: 'Necesitas seleccionar un certificado...'). */
  requiredMessage?: string;
  /** A check that sees the whole form ('Hasta' against 'Desde', an expired certificate, an empty workbook); its message comes first. */
  check?: (value: string, values: Readonly<Record<string, string>>) => string | undefined;
}
export type FormRules<Field extends string> = Record<Field, FieldRule>;
export type FormValues<Field extends string> = Record<Field, string>;
export type FieldErrors<Field extends string> = Partial<Record<Field, string>>;

/** The error a field shows for a value, exactly as the shared validators word it; undefined when fine. */
export function checkField(value: string, { required, formatRequired = true, rule, requiredMessage }: FieldRule): string | undefined {
  const message = fieldError({ value, required, formatRequired, rule }) ?? undefined;
  return message === MANDATORY_MESSAGE && requiredMessage !== undefined ? requiredMessage : message;
}

/** The messages a field can show from its own checks (the error line keeps room for them). */
export function possibleMessages({ required, formatRequired = true, rule, requiredMessage }: FieldRule): string[] {
  const messages: string[] = [];
  if (required) messages.push(requiredMessage ?? MANDATORY_MESSAGE);
  const format = formatRequired && rule !== undefined ? ruleMessage(rule) : undefined;
  if (format !== undefined) messages.push(format);
  return messages;
}

/** A react-hook-form resolver that checks every field with the shared validators (spec §5). */
export function rulesResolver<Field extends string>(rules: FormRules<Field>): Resolver<FormValues<Field>> {
  return (values) => {
    const errors: HookFieldErrors<FormValues<Field>> = {};
    for (const field of Object.keys(rules) as Field[]) {
      const rule = rules[field];
      const message = rule.check?.(values[field], values) ?? checkField(values[field], rule);
      if (message !== undefined) Object.assign(errors, { [field]: { type: 'validate', message } });
    }
    return Object.keys(errors).length === 0 ? { values, errors: {} } : { values: {}, errors };
  };
}

/** Spec §5: the automatic scroll to the first error happens at most once a second. */
export const SCROLL_THROTTLE_MS = 1000;

export interface AppFormOptions<Field extends string> {
  defaultValues: FormValues<Field>;
  rules: FormRules<Field>;
}

/**
 * react-hook-form set up the app's way: the shared validators through a resolver, errors shown on
 * blur and on submit (and cleared while typing once a field shows one, so fixing a field never moves
 * the layout on the next click), the server's field issues placed next to their inputs, and the
 * first error scrolled to and focused on an invalid submit, at most once a second.
 */
export function useAppForm<Field extends string>({ defaultValues, rules }: AppFormOptions<Field>) {
  const form = useForm<FormValues<Field>>({
    defaultValues: defaultValues as DefaultValues<FormValues<Field>>,
    resolver: rulesResolver(rules),
    mode: 'onBlur',
    reValidateMode: 'onChange',
    // Focus is ours: throttled, and scrolled into view in document order.
    shouldFocusError: false,
  });
  const { register, trigger, getFieldState, setError, clearErrors, handleSubmit } = form;
  const elements = useRef(new Map<string, HTMLElement>());
  const lastScroll = useRef(Number.NEGATIVE_INFINITY);

  // Read during render so react-hook-form re-renders this form when an error changes.
  const hookErrors = form.formState.errors;
  const errors: FieldErrors<Field> = {};
  for (const field of Object.keys(rules) as Field[]) {
    const message = hookErrors[field]?.message;
    if (typeof message === 'string') errors[field] = message;
  }

  /** Props for a TextField: registration, the element kept for scrolling, its error and the messages to keep room for. */
  const field = (name: Field) => {
    const path = name as unknown as Path<FormValues<Field>>;
    const registration = register(path);
    return {
      ...registration,
      ref: (element: HTMLInputElement | null) => {
        registration.ref(element);
        if (element) elements.current.set(name, element);
        else elements.current.delete(name);
      },
      onChange: async (event: ChangeEvent<HTMLInputElement>) => {
        await registration.onChange(event);
        // A shown error follows the typing, so it is gone before the user leaves the field.
        if (getFieldState(path).error) await trigger(path);
      },
      error: errors[name],
      reserve: possibleMessages(rules[name]),
    };
  };

  const focusFirstError = useCallback((failed: HookFieldErrors<FormValues<Field>>) => {
    const now = Date.now();
    if (now - lastScroll.current < SCROLL_THROTTLE_MS) return;
    const invalid = (Object.keys(rules) as Field[]).filter((name) => failed[name] !== undefined);
    const targets = invalid.map((name) => elements.current.get(name)).filter((element): element is HTMLElement => element !== undefined);
    targets.sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
    const first = targets[0];
    if (!first) return;
    lastScroll.current = now;
    first.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
    first.focus({ preventScroll: true });
  }, [rules]);

  /** The form's onSubmit: validates everything, then calls onValid with the values, or shows the errors. */
  const submit = useCallback(
    (onValid: SubmitHandler<FormValues<Field>>) => (event?: FormEvent) => handleSubmit(onValid, focusFirstError)(event),
    [handleSubmit, focusFirstError],
  );

  /** Puts the server's issues next to their fields; returns the message of any issue that has no field here. */
  const applyServerError = useCallback(
    (error: unknown): string | undefined => {
      const http = asHttpError(error);
      const issues: FieldIssue[] = http?.data?.issues ?? [];
      const unplaced: string[] = [];
      clearErrors();
      for (const issue of issues) {
        if (issue.path in rules) setError(issue.path as Path<FormValues<Field>>, { type: 'server', message: issue.message });
        else unplaced.push(issue.message);
      }
      if (issues.length > 0 && unplaced.length === 0) return es.auth.checkFields;
      return unplaced[0] ?? http?.message ?? es.common.unexpectedError;
    },
    [rules, clearErrors, setError],
  );

  return { ...form, errors, field, submit, applyServerError };
}

export function asHttpError(error: unknown): HttpError | undefined {
  if (typeof error === 'object' && error !== null && 'status' in error && 'message' in error) return error as HttpError;
  return undefined;
}

/**
 * What to tell the user when a call fails: the server's own Spanish reason for a 4xx (its first field
 * issue, else its message), our wording for anything else (a 5xx, no connection).
 */
export function errorMessage(error: unknown, fallback: string): string {
  const http = asHttpError(error);
  if (!http || http.status < 400 || http.status >= 500) return fallback;
  return http.data?.issues?.[0]?.message ?? http.data?.message ?? fallback;
}
