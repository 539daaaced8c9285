import type { FastifyInstance } from 'fastify';
import { validationError } from './errors.ts';

/**
 * Deepest nesting of arrays/objects a request body may have. Our contracts need a handful of levels;
 * recursive schemas (zod's z.json()) and JSON.stringify recurse per level, so ~2,000 levels blew the
 * stack (a 500). 32 leaves room for free-form preference values.
 */
export const MAX_JSON_DEPTH = 32;

export const TOO_DEEP_MESSAGE = `Los datos enviados tienen demasiados niveles de anidamiento (máximo ${MAX_JSON_DEPTH})`;

/**
 * Whether JSON text nests arrays/objects deeper than `max`. One linear pass over the text before
 * parsing, with no recursion, skipping brackets inside strings; it does not validate the JSON
 * (the parser does that next).
 */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (char === 0x22 /* " */) {
      // Past the string at once (indexOf is far quicker than a loop over a megabyte of image data):
      // its end is the next quote not escaped, i.e. after an even run of backslashes.
      for (;;) {
        const end = text.indexOf('"', i + 1);
        if (end < 0) return false;
        let backslashes = 0;
        while (text.charCodeAt(end - 1 - backslashes) === 0x5c /* \ */) backslashes++;
        i = end;
        if (backslashes % 2 === 0) break;
      }
    } else if (char === 0x5b /* [ */ || char === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (char === 0x5d /* ] */ || char === 0x7d /* } */) {
      depth--;
    }
  }
  return false;
}

/**
 * Fastify's JSON parser (with its prototype-poisoning guards) for every route, plus:
 * - an empty body reads as no body: a bodyless POST that still says application/json (logout,
 *   newtoken) is not an error;
 * - a body nested deeper than MAX_JSON_DEPTH is a 400 before anything parses or validates it.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) return done(validationError([{ path: '(body)', message: TOO_DEEP_MESSAGE }]), undefined);
    return parseJson(request, text, done);
  });
}
