import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { lazyRequestLogger } from './request-logger.ts';

/** A Fastify whose log lines are kept, with the lazy request logger, counting the pino children made. */
async function appWithLog(level = 'info') {
  const lines: Array<Record<string, unknown>> = [];
  let children = 0;
  const app = Fastify({
    logger: { level, stream: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) } },
    disableRequestLogging: true,
    childLoggerFactory(logger, bindings, options) {
      const counting = Object.create(logger) as typeof logger;
      counting.child = (...args) => {
        children++;
        return logger.child(...args);
      };
      return lazyRequestLogger(counting, bindings, options);
    },
  });
  app.get('/quiet', async () => ({ ok: true }));
  app.get('/debug', async (request) => {
    request.log.debug({ detail: 1 }, 'solo en depuración');
    return { ok: true };
  });
  app.get('/loud', async (request) => {
    request.log.warn({ detail: 1 }, 'algo raro');
    request.log.error('y otra cosa');
    return { ok: true };
  });
  await app.ready();
  return { app, lines, children: () => children };
}

describe('lazyRequestLogger', () => {
  it('makes no pino child for a request that logs nothing, nor for a level that is off', async () => {
    const { app, lines, children } = await appWithLog();
    expect((await app.inject('/quiet')).statusCode).toBe(200);
    expect((await app.inject('/debug')).statusCode).toBe(200);
    expect(children()).toBe(0);
    expect(lines).toEqual([]);
    await app.close();
  });

  it("a request's lines carry its id, as pino's child would write them, from one child per request", async () => {
    const { app, lines, children } = await appWithLog();
    await app.inject('/loud');
    await app.inject('/loud');
    expect(children()).toBe(2);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatchObject({ level: 40, reqId: 'req-1', detail: 1, msg: 'algo raro' });
    expect(lines[1]).toMatchObject({ level: 50, reqId: 'req-1', msg: 'y otra cosa' });
    expect(lines[2]).toMatchObject({ reqId: 'req-2', msg: 'algo raro' });
    await app.close();
  });

  it('a debug line is written when the level is on', async () => {
    const { app, lines } = await appWithLog('debug');
    await app.inject('/debug');
    expect(lines).toContainEqual(expect.objectContaining({ level: 20, reqId: 'req-1', msg: 'solo en depuración' }));
    await app.close();
  });
});
