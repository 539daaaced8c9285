import { z } from 'zod';
import { toFieldIssues } from '../../shared/api/errors.ts';
import { validationError } from './errors.ts';

// Generic zod messages (wrong type, too long...) in Spanish; our schemas' own messages win over these.
z.config(z.locales.es());

/**
 * Parses one part of a request (body, params, query) with its contract schema. A failure throws a
 * 400 with the field paths before any handler code runs, so nothing is written.
 */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw validationError(toFieldIssues(result.error));
  return result.data;
}
