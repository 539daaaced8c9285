import { afterEach, describe, expect, it } from 'vitest';
import { supportInfoSchema } from '#shared/api/support.ts';
import { registerUser, startTestServer, type TestServer } from '../../test/harness.ts';
import { configFromEnv } from '../../env.ts';
import { DEFAULT_SUPPORT_EMAIL, supportConfigFromEnv } from './config.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('GET /api/support', () => {
  it('answers the default address to anyone, signed in or not', async () => {
    server = await startTestServer();
    const anonymous = await server.app.inject({ method: 'GET', url: '/api/support' });
    expect(anonymous.statusCode).toBe(200);
    expect(supportInfoSchema.parse(anonymous.json())).toEqual({ email: 'soporte@autoasesor.es' });

    const jar = await registerUser(server.app, 'soporte-usuario@asesoria.es');
    expect((await jar.get('/api/support')).json()).toEqual({ email: DEFAULT_SUPPORT_EMAIL });
  });

  it('answers the address configured in SUPPORT_EMAIL', async () => {
    server = await startTestServer({ support: configFromEnv({ SUPPORT_EMAIL: '  ayuda@mi-asesoria.es ' }).server.support });
    const response = await server.app.inject({ method: 'GET', url: '/api/support' });
    expect(response.json()).toEqual({ email: 'ayuda@mi-asesoria.es' });
  });

  it('refuses to start with a SUPPORT_EMAIL that is not an address', () => {
    expect(() => configFromEnv({ SUPPORT_EMAIL: 'soporte' })).toThrow('SUPPORT_EMAIL no es una dirección de correo válida');
  });
});

describe('supportConfigFromEnv', () => {
  it('falls back to the default when unset or blank', () => {
    expect(supportConfigFromEnv({})).toEqual({ email: DEFAULT_SUPPORT_EMAIL });
    expect(supportConfigFromEnv({ SUPPORT_EMAIL: '   ' })).toEqual({ email: DEFAULT_SUPPORT_EMAIL });
  });
});

describe('answers by email in supportConfigFromEnv', () => {
  const token = 'token-largo-del-servicio';
  const secret = 'secreto-largo-de-las-respuestas';

  it('reads SUPPORT_INBOUND_TOKEN, SUPPORT_REPLY_SECRET and SUPPORT_INBOUND_AUTHSERV_ID together', () => {
    expect(supportConfigFromEnv({ SUPPORT_INBOUND_TOKEN: ` ${token} `, SUPPORT_REPLY_SECRET: secret, SUPPORT_INBOUND_AUTHSERV_ID: 'mx.google.com, mx.correo.es' })).toEqual({
      email: DEFAULT_SUPPORT_EMAIL,
      inbound: { token, replySecret: secret, authservIds: ['mx.google.com', 'mx.correo.es'] },
    });
    expect(supportConfigFromEnv({ SUPPORT_INBOUND_TOKEN: '', SUPPORT_REPLY_SECRET: '  ' }).inbound).toBeUndefined();
  });

  it('refuses to start with one without the other, or with a short one', () => {
    const together = 'SUPPORT_INBOUND_TOKEN, SUPPORT_REPLY_SECRET y SUPPORT_INBOUND_AUTHSERV_ID van juntos';
    expect(() => supportConfigFromEnv({ SUPPORT_INBOUND_TOKEN: token })).toThrow(together);
    expect(() => supportConfigFromEnv({ SUPPORT_REPLY_SECRET: secret })).toThrow(together);
    // Without the receiver's name every Authentication-Results header would count, a forged one too.
    expect(() => supportConfigFromEnv({ SUPPORT_INBOUND_TOKEN: token, SUPPORT_REPLY_SECRET: secret })).toThrow(together);
    expect(() => supportConfigFromEnv({ SUPPORT_INBOUND_TOKEN: 'corto', SUPPORT_REPLY_SECRET: secret, SUPPORT_INBOUND_AUTHSERV_ID: 'mx.correo.es' })).toThrow('SUPPORT_INBOUND_TOKEN es demasiado corto');
  });
});
