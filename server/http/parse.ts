import { es } from 'zod/locales';
import { z } from 'zod/mini';
import { toFieldIssues } from '#shared/api/errors.ts';
import { validationError } from './errors.ts';

// Generic zod messages (wrong type, too long...) in Spanish; our schemas' own messages win over these.
// The config lives in zod's shared core, so it covers zod/mini and classic zod schemas alike.
// The locale by its own name: through z.locales the server's bundle would keep all of zod's ~50 locales.
z.config(es());

/**
 * Parses one part of a request (body, params, query) with its contract schema. A failure throws a
 * 400 with the field paths before any handler code runs, so nothing is written. Any zod schema fits
 * (the contract's are zod/mini; classic ones share the same core).
 */
export function parseInput<Schema extends z.core.$ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const result = z.safeParse(schema, input ?? {});
  if (!result.success) throw validationError(toFieldIssues(result.error));
  return result.data;
}

/**
 * parseInput of a query string, for a schema whose defaults are constants (no default made by a
 * function, such as today's date): an empty query, the first page a screen asks for, is parsed once,
 * and each request gets its own copy of that result. Filling the same defaults in every time was ~4 µs
 * of a history page. The result must be flat (only plain values), so that a copy is a whole copy.
 */
export function queryParser<Schema extends z.core.$ZodType>(schema: Schema): (query: unknown) => z.output<Schema> {
  let empty: Record<string, unknown> | undefined;
  return (query) => {
    if (!isEmpty(query)) return parseInput(schema, query);
    empty ??= flatResult(parseInput(schema, {}));
    return { ...empty } as z.output<Schema>;
  };
}

function isEmpty(query: unknown): boolean {
  if (query === undefined || query === null) return true;
  if (typeof query !== 'object') return false;
  for (const _key in query) return false;
  return true;
}

function flatResult(value: unknown): Record<string, unknown> {
  const flat = typeof value === 'object' && value !== null && Object.values(value).every((item) => item === null || typeof item !== 'object');
  if (!flat) throw new Error('queryParser: an empty query must parse to an object of plain values');
  return value as Record<string, unknown>;
}

export const NUL_MESSAGE = 'El texto contiene un carácter no válido (NUL)';

/** Where a NUL hides in parsed input (a key or a text; PostgreSQL refuses it in text), or null. */
export function nulAt(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, item] of Object.entries(value)) {
    const at = key.includes('\u0000') ? path : nulAt(item, path === '' ? key : `${path}.${key}`);
    if (at !== null) return at;
  }
  return null;
}

/**
 * parseInput, and a 400 for text holding a NUL: no text of ours has one, and PostgreSQL could not store
 * it (SQLite would, so the two databases would disagree). For bodies that are stored as they come.
 */
export function parseNulFreeInput<Schema extends z.core.$ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const value = parseInput(schema, input);
  const at = nulAt(value);
  if (at !== null) throw validationError([{ path: at || '(body)', message: NUL_MESSAGE }]);
  return value;
}
