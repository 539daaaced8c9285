import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessionResponseSchema } from '#shared/api/auth.ts';
import { CookieJar, PASSWORD, registerUser, startTestServer, type TestServer } from '../../test/harness.ts';

let now: Date;
let server: TestServer;
beforeEach(async () => {
  now = new Date('2025-05-05T09:00:00Z');
  server = await startTestServer({ now: () => now });
});
afterEach(async () => server.close());

function tokenOf(link: string): string {
  return new URL(link).searchParams.get('token') ?? '';
}

const INVALID_LINK = { statusCode: 400, code: 'INVALID_TOKEN', message: 'El enlace no es válido o ha caducado' };

describe('password reset', () => {
  it('goes end to end with the logged link: check, set, sign out everywhere, log in with the new password', async () => {
    const jar = await registerUser(server.app, 'olvido@asesoria.es');
    const asked = await server.app.inject({ method: 'POST', url: '/api/auth/resetpass', payload: { email: 'Olvido@asesoria.es' } });
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toEqual({ ok: true });

    const [link] = server.mailedLinks('reset_password');
    expect(link).toMatch(/^http:\/\/app\.test\/auth\/reset\?token=/);
    const token = tokenOf(link ?? '');
    expect((await server.app.inject({ method: 'POST', url: '/api/auth/resetpasscheck', payload: { token } })).statusCode).toBe(200);

    const reset = await server.app.inject({ method: 'POST', url: '/api/auth/resetpasscheck', payload: { token, password: 'Nueva5678$' } });
    expect(reset.statusCode).toBe(200);
    expect((await jar.get('/api/users/me')).statusCode).toBe(401);
    expect((await jar.post('/api/auth/newtoken')).statusCode).toBe(401);

    const login = (password: string) => server.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'olvido@asesoria.es', password } });
    expect((await login(PASSWORD)).statusCode).toBe(401);
    expect((await login('Nueva5678$')).statusCode).toBe(200);

    // Single use.
    const again = await server.app.inject({ method: 'POST', url: '/api/auth/resetpasscheck', payload: { token, password: 'Otra5678$$' } });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(INVALID_LINK);
  });

  it('lets only one of five concurrent resets with the same link through', async () => {
    await registerUser(server.app, 'carrera@asesoria.es');
    await server.app.inject({ method: 'POST', url: '/api/auth/resetpass', payload: { email: 'carrera@asesoria.es' } });
    const token = tokenOf(server.mailedLinks('reset_password')[0] ?? '');
    const passwords = ['Nueva5678$a', 'Nueva5678$b', 'Nueva5678$c', 'Nueva5678$d', 'Nueva5678$e'];
    const answers = await Promise.all(passwords.map((password) => server.app.inject({ method: 'POST', url: '/api/auth/resetpasscheck', payload: { token, password } })));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    for (const answer of answers.filter((a) => a.statusCode !== 200)) expect(answer.json()).toEqual(INVALID_LINK);
    // The password that works is the winner's, and only it.
    const winner = passwords[statuses.indexOf(200)] ?? '';
    const login = (password: string) => server.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'carrera@asesoria.es', password }, remoteAddress: '198.51.100.20' });
    for (const password of passwords.filter((p) => p !== winner)) expect((await login(password)).statusCode).toBe(401);
    expect((await login(winner)).statusCode).toBe(200);
  });

  it('caps reset mails per address per day, answering 202 all the same', async () => {
    const capped = await startTestServer({ now: () => now, authLimits: { resetMailsPerDay: 3 } });
    try {
      await registerUser(capped.app, 'buzon@asesoria.es');
      // From a new address each time, as a mail bomber would, past the per-minute limit per client.
      let client = 0;
      const ask = () => capped.app.inject({ method: 'POST', url: '/api/auth/resetpass', payload: { email: 'buzon@asesoria.es' }, remoteAddress: `198.51.100.${++client}` });
      for (let minute = 0; minute < 5; minute++) {
        now = new Date(Date.UTC(2025, 4, 5, 9, minute * 2));
        expect((await ask()).statusCode).toBe(202);
      }
      expect(capped.mailedLinks('reset_password')).toHaveLength(3);
      now = new Date('2025-05-06T09:10:00Z'); // a day after the third
      expect((await ask()).statusCode).toBe(202);
      expect(capped.mailedLinks('reset_password')).toHaveLength(4);
    } finally {
      await capped.close();
    }
  });

  it('answers 202 for an unknown email and sends nothing', async () => {
    const response = await server.app.inject({ method: 'POST', url: '/api/auth/resetpass', payload: { email: 'nadie@asesoria.es' } });
    expect(response.statusCode).toBe(202);
    expect(server.mailedLinks('reset_password')).toEqual([]);
    expect(server.countRows('user_tokens')).toBe(0);
  });

  it('rejects a link after an hour and an unknown token', async () => {
    await registerUser(server.app, 'tarde@asesoria.es');
    await server.app.inject({ method: 'POST', url: '/api/auth/resetpass', payload: { email: 'tarde@asesoria.es' } });
    const token = tokenOf(server.mailedLinks('reset_password')[0] ?? '');
    now = new Date('2025-05-05T10:00:01Z');
    const late = await server.app.inject({ method: 'POST', url: '/api/auth/resetpasscheck', payload: { token } });
    expect(late.json()).toEqual(INVALID_LINK);
    const unknown = await server.app.inject({ method: 'POST', url: '/api/auth/resetpasscheck', payload: { token: 'x'.repeat(43) } });
    expect(unknown.json()).toEqual(INVALID_LINK);
  });

  it('validates the new password with the spec message and keeps the token usable', async () => {
    await registerUser(server.app, 'debil@asesoria.es');
    await server.app.inject({ method: 'POST', url: '/api/auth/resetpass', payload: { email: 'debil@asesoria.es' } });
    const token = tokenOf(server.mailedLinks('reset_password')[0] ?? '');
    const weak = await server.app.inject({ method: 'POST', url: '/api/auth/resetpasscheck', payload: { token, password: 'corta' } });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().issues).toEqual([
      { path: 'password', message: 'La contraseña debe incluir al menos 8 caracteres, un número, una mayúscula y un símbolo especial' },
    ]);
    expect((await server.app.inject({ method: 'POST', url: '/api/auth/resetpasscheck', payload: { token } })).statusCode).toBe(200);
  });
});

describe('email validation', () => {
  const validate = (email: string, token: string) =>
    server.app.inject({ method: 'POST', url: `/api/auth/emailvalidation/${encodeURIComponent(email)}`, payload: { token } });
  const isValidated = async (jar: CookieJar) => sessionResponseSchema.parse((await jar.get('/api/users/me')).json()).userData.emailValidated;

  it('sends a link to the signed-in user, and the link alone validates the email, once', async () => {
    const jar = await registerUser(server.app, 'valida@asesoria.es');
    const sent = await jar.post('/api/auth/emailvalidation/valida%40asesoria.es');
    expect(sent.statusCode).toBe(202);
    const [link] = server.mailedLinks('email_validation');
    expect(link).toContain('http://app.test/auth/emailvalidation?');
    const params = new URL(link ?? '').searchParams;
    expect(params.get('email')).toBe('valida@asesoria.es');

    // No cookies: the link is often opened on another device.
    const validated = await validate('Valida@Asesoria.es', params.get('token') ?? '');
    expect(validated.statusCode).toBe(200);
    expect(validated.json()).toEqual({ ok: true });
    expect(await isValidated(jar)).toBe(true);

    const again = await validate('valida@asesoria.es', params.get('token') ?? '');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(INVALID_LINK);
  });

  it('still works for the signed-in user, and a newer link spends the older one', async () => {
    const jar = await registerUser(server.app, 'dos@asesoria.es');
    await jar.post('/api/auth/emailvalidation/dos%40asesoria.es');
    await jar.post('/api/auth/emailvalidation/dos%40asesoria.es');
    const [first, second] = server.mailedLinks('email_validation').map(tokenOf);
    expect((await jar.post('/api/auth/emailvalidation/dos%40asesoria.es', { token: second })).statusCode).toBe(200);
    expect((await validate('dos@asesoria.es', first ?? '')).json()).toEqual(INVALID_LINK);
  });

  it('sending needs a session and only goes to the account’s own email', async () => {
    const anonymous = await server.app.inject({ method: 'POST', url: '/api/auth/emailvalidation/a%40b.es' });
    expect(anonymous.statusCode).toBe(401);
    const ana = await registerUser(server.app, 'ana@asesoria.es');
    const other = await ana.post('/api/auth/emailvalidation/otro%40asesoria.es');
    expect(other.statusCode).toBe(403);
    expect(server.mailedLinks('email_validation')).toEqual([]);
    expect(server.countRows('user_tokens')).toBe(0);
  });

  it('rejects another user’s token for this email and writes nothing', async () => {
    const ana = await registerUser(server.app, 'ana@asesoria.es');
    const luis = await registerUser(server.app, 'luis@asesoria.es');
    await luis.post('/api/auth/emailvalidation/luis%40asesoria.es');
    const luisToken = tokenOf(server.mailedLinks('email_validation')[0] ?? '');

    const stolen = await validate('ana@asesoria.es', luisToken);
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json()).toEqual(INVALID_LINK);
    expect(await isValidated(ana)).toBe(false);
    expect(await isValidated(luis)).toBe(false);
    // Luis's token is still unspent: the failed attempt did not burn it.
    expect((await validate('luis@asesoria.es', luisToken)).statusCode).toBe(200);
  });

  it('rejects an unknown token, an expired one and a reset token', async () => {
    const jar = await registerUser(server.app, 'marta@asesoria.es');
    expect((await validate('marta@asesoria.es', 'x'.repeat(43))).json()).toEqual(INVALID_LINK);

    await server.app.inject({ method: 'POST', url: '/api/auth/resetpass', payload: { email: 'marta@asesoria.es' } });
    const resetToken = tokenOf(server.mailedLinks('reset_password')[0] ?? '');
    expect((await validate('marta@asesoria.es', resetToken)).json()).toEqual(INVALID_LINK);

    await jar.post('/api/auth/emailvalidation/marta%40asesoria.es');
    const token = tokenOf(server.mailedLinks('email_validation')[0] ?? '');
    now = new Date('2025-05-06T09:00:01Z');
    expect((await validate('marta@asesoria.es', token)).json()).toEqual(INVALID_LINK);
    // A day later the old session has lapsed too: sign in again to look.
    const later = new CookieJar(server.app);
    await later.post('/api/auth/login', { email: 'marta@asesoria.es', password: PASSWORD });
    expect(await isValidated(later)).toBe(false);
  });

  it('limits attempts per client', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++) statuses.push((await validate('nadie@asesoria.es', 'x'.repeat(43))).statusCode);
    expect(statuses.slice(0, 10).every((status) => status === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});
