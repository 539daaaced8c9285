import { describe, expect, it } from 'vitest';
import { apiErrorSchema } from '#shared/api/errors.ts';
import { readApiError } from './http.ts';

const valid = { statusCode: 422, code: 'VALIDATION', message: 'Revisa los campos' };

// Bodies a server, a proxy or a broken deploy can send back: the hand-written reader must judge each
// one exactly as the schema the server answers with does, and return what the schema returns.
const bodies: Record<string, unknown> = {
  'the minimal error': valid,
  'with field issues': { ...valid, issues: [{ path: 'email', message: 'Email no válido' }] },
  'with a logout reason': { statusCode: 401, code: 'UNAUTHORIZED', message: 'Sesión caducada', logoutReason: 'expired' },
  'with details': { statusCode: 402, code: 'PAYMENT_REQUIRED', message: 'Sin créditos', details: { balance: 3, estimate: 10 } },
  'with keys the schema does not know': { ...valid, stack: 'at x', extra: 1 },
  'an issue with extra keys': { ...valid, issues: [{ path: 'email', message: 'x', code: 'invalid' }] },
  'an HTML page': '<html>502 Bad Gateway</html>',
  'an empty body': null,
  'an array': [valid],
  'a status as text': { ...valid, statusCode: '422' },
  'no message': { statusCode: 500, code: 'INTERNAL' },
  'issues not a list': { ...valid, issues: 'email' },
  'an issue without a path': { ...valid, issues: [{ message: 'x' }] },
  'a numeric logout reason': { ...valid, logoutReason: 1 },
  'details as a list': { ...valid, details: [1, 2] },
  'details as text': { ...valid, details: 'x' },
};

describe('readApiError', () => {
  for (const [name, body] of Object.entries(bodies)) {
    it(`agrees with apiErrorSchema on ${name}`, () => {
      const parsed = apiErrorSchema.safeParse(body);
      expect(readApiError(body)).toEqual(parsed.success ? parsed.data : undefined);
    });
  }
});
