import { afterEach, describe, expect, it } from 'vitest';
import { configFromEnv } from '../env.ts';
import { startTestServer, type TestServer } from '../test/harness.ts';
import { pickLanguage } from './client-info.ts';

describe('pickLanguage', () => {
  it('takes the first language the app speaks, else Spanish', () => {
    expect(pickLanguage('en-GB,en;q=0.9')).toBe('en');
    expect(pickLanguage('fr-FR, ca;q=0.8, es;q=0.5')).toBe('ca');
    expect(pickLanguage('de-DE')).toBe('es');
    expect(pickLanguage('')).toBe('es');
    expect(pickLanguage(null)).toBe('es');
  });

  it('reads tags in any case and with spaces, and ignores what is not a language', () => {
    expect(pickLanguage(' CA-es ;q=1')).toBe('ca');
    expect(pickLanguage('*')).toBe('es');
    expect(pickLanguage(',,;q=0.1, EN')).toBe('en');
    expect(pickLanguage('constructor, toString, __proto__')).toBe('es');
  });
});

describe('client IP behind a proxy (TRUST_PROXY)', () => {
  let server: TestServer;
  afterEach(async () => server.close());

  /**
   * The attack: a client sends its own X-Forwarded-For with a new address each time; the proxy in
   * front appends the real one. 40 spoofed reports of 19 KB from one client against a 60 KB budget
   * per sender must meet 429s.
   */
  async function spoofedStatuses(trustProxy: string, remoteAddress: string): Promise<number[]> {
    server = await startTestServer({ trustProxy: configFromEnv({ TRUST_PROXY: trustProxy }).server.trustProxy, appLogs: { bytesPerSenderPerHour: 60_000 } });
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const response = await server.app.inject({
        method: 'POST',
        url: '/api/applogs',
        remoteAddress,
        headers: { 'x-forwarded-for': `10.66.${i}.1, 198.51.100.7` },
        payload: { message: 'fallo', stack: 'x'.repeat(19_000) },
      });
      statuses.push(response.statusCode);
    }
    return statuses;
  }

  it.each([
    { name: 'a hop count (1)', trustProxy: '1' },
    { name: 'the proxy address', trustProxy: '127.0.0.1' },
    { name: 'the proxy network', trustProxy: '10.0.0.0/8, 127.0.0.0/8' },
  ])('$name: spoofed X-Forwarded-For entries are ignored and the real client hits its budget', async ({ trustProxy }) => {
    const statuses = await spoofedStatuses(trustProxy, '127.0.0.1');
    expect(statuses.slice(0, 3)).toEqual([201, 201, 201]);
    expect(statuses.slice(3)).toEqual(Array<number>(37).fill(429));
  });

  it('an X-Forwarded-For from a peer that is not a configured proxy is ignored', async () => {
    const statuses = await spoofedStatuses('10.0.0.1', '192.0.2.44');
    expect(statuses.filter((status) => status === 429)).toHaveLength(37);
  });
});
