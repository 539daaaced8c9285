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
