import { z } from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { flowlogQuerySchema } from '#shared/api/flows.ts';
import { HttpError } from './errors.ts';
import { parseInput, queryParser } from './parse.ts';

describe('queryParser', () => {
  it('gives an empty query the defaults parseInput gives, as a copy of its own each time', () => {
    const parse = queryParser(flowlogQuerySchema);
    const first = parse({});
    expect(first).toEqual(parseInput(flowlogQuerySchema, {}));
    expect(first).toEqual({ sortby: 'createAt', sortdir: 'desc', start: 0, limit: 12 });
    first.limit = 99;
    expect(parse(Object.create(null))).toEqual({ sortby: 'createAt', sortdir: 'desc', start: 0, limit: 12 });
    expect(parse(undefined)).not.toBe(parse(undefined));
  });

  it('parses any other query as parseInput does, a bad one with its 400', () => {
    const parse = queryParser(flowlogQuerySchema);
    parse({});
    expect(parse({ start: '24', sortdir: 'asc' })).toEqual({ sortby: 'createAt', sortdir: 'asc', start: 24, limit: 12 });
    const refused = (() => {
      try {
        parse({ limit: '500' });
      } catch (error) {
        return error;
      }
      return null;
    })();
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).statusCode).toBe(400);
  });

  it('refuses a schema whose empty query does not parse to plain values (a copy would share them)', () => {
    const parse = queryParser(z.object({ ids: z._default(z.array(z.string()), []) }));
    expect(() => parse({})).toThrow('an object of plain values');
  });
});
