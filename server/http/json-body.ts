import type { FastifyInstance } from 'fastify';

/**
 * Fastify's JSON parser (with its prototype-poisoning guards), except that an empty body reads as
 * no body: a bodyless POST that still says application/json (logout, newtoken) is not an error.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    return parseJson(request, text, done);
  });
}
