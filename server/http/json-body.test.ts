import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '#shared/api/errors.ts';
import type { Database } from '../db/schema.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../test/harness.ts';
import { MAX_JSON_DEPTH, jsonDepthExceeds } from './json-body.ts';

describe('jsonDepthExceeds', () => {
  it('counts nesting of arrays and objects, not brackets inside strings', () => {
    expect(jsonDepthExceeds('{"a":[1,{"b":2}]}', 3)).toBe(false);
    expect(jsonDepthExceeds('{"a":[1,{"b":[2]}]}', 3)).toBe(true);
    expect(jsonDepthExceeds(JSON.stringify({ text: '[[[[[[{{{{{{' }), 1)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify({ text: 'comilla \\" y [[[' }), 1)).toBe(false);
  });

  it('agrees with the real depth of any JSON, whatever its strings hold (quotes, backslashes, brackets)', () => {
    const depthOf = (value: unknown): number =>
      Array.isArray(value) ? 1 + Math.max(0, ...value.map(depthOf)) : value !== null && typeof value === 'object' ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0;
    const tricky = fc.string({ unit: fc.constantFrom('"', '\\', '[', ']', '{', '}', 'a', ',', ':') });
    const json = fc.letrec((tie) => ({ value: fc.oneof({ depthSize: 'small' }, tricky, fc.integer(), fc.array(tie('value')), fc.dictionary(tricky, tie('value'))) })).value;
    fc.assert(fc.property(json, fc.integer({ min: 0, max: 6 }), (value, max) => jsonDepthExceeds(JSON.stringify(value), max) === depthOf(value) > max));
  });
});

describe('deeply nested JSON bodies', () => {
  let server: TestServer;
  let jar: CookieJar;
  beforeAll(async () => {
    server = await startTestServer();
    jar = await registerUser(server.app, 'anidado@asesoria.es');
  });
  afterAll(async () => server.close());

  const TABLES: Array<keyof Database> = ['users', 'sessions', 'preferences', 'app_logs'];
  const snapshot = () => server.countTables(TABLES);
  const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

  it.each([
    { name: 'POST /api/applogs (public)', method: 'POST' as const, url: '/api/applogs', body: `{"message":"x","context":{"a":${nested(2000)}}}` },
    { name: 'PATCH /api/preferences', method: 'PATCH' as const, url: '/api/preferences', body: `{"a":${'{"b":'.repeat(2000)}1${'}'.repeat(2000)}}` },
    { name: 'POST /api/auth/login', method: 'POST' as const, url: '/api/auth/login', body: nested(2000) },
  ])('$name: 2,000 levels -> 400 in Spanish, nothing written, no stack logged', async ({ method, url, body }) => {
    const before = snapshot();
    const logged = server.logLines().length;
    const response = await jar.request({ method, url, headers: { 'content-type': 'application/json' }, payload: body });
    expect(response.statusCode).toBe(400);
    const error = apiErrorSchema.parse(response.json());
    expect(error).toMatchObject({ code: 'VALIDATION', issues: [{ path: '(body)', message: `Los datos enviados tienen demasiados niveles de anidamiento (máximo ${MAX_JSON_DEPTH})` }] });
    expect(snapshot()).toEqual(before);
    const newLines = server.logLines().slice(logged);
    expect(newLines.filter((line) => Number(line.level) >= 50 || JSON.stringify(line).includes('stack'))).toEqual([]);
  });

  it('still accepts ordinary nesting up to the limit', async () => {
    const value = JSON.parse(nested(MAX_JSON_DEPTH - 1)) as unknown;
    const response = await jar.patch('/api/preferences', { tabla: value });
    expect(response.statusCode).toBe(200);
  });
});
