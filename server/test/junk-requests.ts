import type { LightMyRequestResponse } from 'fastify';

/**
 * The bad-input sweep's cases (scripts/sweep.ts) for a module's own sweep test with REAL ids, so the junk
 * reaches the body and query checks rather than stopping at a 404.
 */
export const JUNK = '\u0000\u202e💥\uffff<script>alert(1)</script>\'";--\\';

export interface JunkCase {
  name: string;
  headers?: Record<string, string>;
  payload?: string | Buffer;
  query?: string;
}

const nested = (depth: number, open: string, close: string) => `${open.repeat(depth)}1${close.repeat(depth)}`;
export const jsonCase = (value: unknown) => ({ headers: { 'content-type': 'application/json' }, payload: JSON.stringify(value) });

/**
 * Bodies every JSON route must refuse cleanly: malformed and hostile JSON, other content types, deep
 * nesting, a body over the route's limit (`overLimit`: the field and size that passes it), and each of
 * `fields` set to values of every wrong type, huge, or junk.
 */
export function junkBodies(fields: readonly string[], overLimit: { field: string; bytes: number }): JunkCase[] {
  return [
    { name: 'no body' },
    ...['', 'null', '[]', '"texto"', '42', '{}', '{', '{"a":}', '{"__proto__":{"admin":true}}'].map((payload) => ({ name: `JSON ${payload}`, headers: { 'content-type': 'application/json' }, payload })),
    { name: 'text/plain', headers: { 'content-type': 'text/plain' }, payload: 'a=1' },
    { name: 'multipart junk', headers: { 'content-type': 'multipart/form-data; boundary=x' }, payload: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--' },
    { name: 'invalid UTF-8', headers: { 'content-type': 'application/json' }, payload: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]) },
    { name: 'deep arrays', headers: { 'content-type': 'application/json' }, payload: nested(3_000, '[', ']') },
    { name: 'deep objects', headers: { 'content-type': 'application/json' }, payload: nested(2_000, '{"a":', '}') },
    { name: `over ${overLimit.bytes} bytes`, ...jsonCase({ [overLimit.field]: 'a'.repeat(overLimit.bytes) }) },
    { name: 'many keys', ...jsonCase({ values: Object.fromEntries(Array.from({ length: 20_000 }, (_, index) => [`k${index}`, 'x'])) }) },
    ...[123, true, [], {}, null, JUNK, '', { $gt: '' }].map((value) => ({ name: `every field = ${JSON.stringify(value)}`, ...jsonCase(Object.fromEntries(fields.map((field) => [field, value]))) })),
    ...fields.flatMap((field) => [
      { name: `${field} huge`, ...jsonCase({ [field]: 'a'.repeat(250_000) }) },
      { name: `${field} junk`, ...jsonCase({ [field]: JUNK }) },
    ]),
  ];
}

/** Query strings every list must refuse or ignore cleanly, with `extra` ones of the module's own. */
export function junkQueries(extra: readonly string[] = []): JunkCase[] {
  return ['?a=1&a=2&a[b]=3', '?__proto__[admin]=1', '?q=%ZZ%', `?q=${'x'.repeat(8_000)}`, '?page=-1', '?page=1e9', '?q=a&q=b', ...extra].map((query) => ({ name: `query ${query.slice(0, 30)}`, query }));
}

/**
 * What is wrong with one answer, or null: a 5xx, a refusal with a status the route should not give, or
 * a refusal with no Spanish message to show.
 */
export function junkAnswerProblem(name: string, response: LightMyRequestResponse, rejected: ReadonlySet<number>): string | null {
  if (response.statusCode >= 500) return `${name}: ${response.statusCode} ${response.body.slice(0, 200)}`;
  if (response.statusCode >= 400 && !rejected.has(response.statusCode)) return `${name}: unexpected ${response.statusCode}`;
  if (response.statusCode >= 400 && (response.json() as { message?: unknown }).message === undefined) return `${name}: no message`;
  return null;
}
