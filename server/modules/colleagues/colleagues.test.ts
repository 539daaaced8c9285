import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Colleagues, Invitation } from '#shared/api/colleagues.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { INVITATIONS_PER_DAY } from './errors.ts';
import { INVITE_RATE_LIMIT_PER_MINUTE } from './routes.ts';
import { invite, joinFirm } from './test-support.ts';

let clock = new Date('2026-03-02T09:00:00.000Z');
let server: TestServer;
let ana: CookieJar;

beforeEach(async () => {
  clock = new Date('2026-03-02T09:00:00.000Z');
  server = await startTestServer({ now: () => clock });
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
});
afterEach(async () => server.close());

const colleaguesOf = async (jar: CookieJar): Promise<Colleagues> => {
  const response = await jar.get('/api/colleagues');
  expect(response.statusCode).toBe(200);
  return response.json();
};
/** After the clock moved past the access token's life: a new one, as the renderer would get. */
const moveClock = async (ms: number, jar: CookieJar) => {
  clock = new Date(clock.getTime() + ms);
  expect((await jar.post('/api/auth/newtoken')).statusCode).toBe(200);
};
const codeOf = (response: { json: <T>() => T }) => response.json<{ code: string }>().code;

describe('GET /api/colleagues', () => {
  it('needs a session', async () => {
    expect((await server.app.inject({ method: 'GET', url: '/api/colleagues' })).statusCode).toBe(401);
  });

  it('lists the owner first, then members by joining date, with isMe, pending invitations and canManage for the owner only', async () => {
    clock = new Date(clock.getTime() + 60_000);
    const luis = await joinFirm(server, ana, 'luis@asesoria.es', 'Luis Gil');
    clock = new Date(clock.getTime() + 60_000);
    await joinFirm(server, ana, 'marta@asesoria.es', 'Marta Ruiz');
    await invite(server, ana, 'pepe@asesoria.es');

    const asOwner = await colleaguesOf(ana);
    expect(asOwner.canManage).toBe(true);
    expect(asOwner.members.map((member) => [member.email, member.role, member.isMe])).toEqual([
      ['ana@asesoria.es', 'owner', true],
      ['luis@asesoria.es', 'member', false],
      ['marta@asesoria.es', 'member', false],
    ]);
    expect(asOwner.invitations.map((invitation) => [invitation.email, invitation.invitedBy?.name])).toEqual([['pepe@asesoria.es', 'Ana Pérez']]);

    const asMember = await colleaguesOf(luis);
    expect(asMember.canManage).toBe(false);
    expect(asMember.members.find((member) => member.isMe)?.email).toBe('luis@asesoria.es');
    expect(asMember.invitations).toHaveLength(1);
  });

  it("never shows another firm's people", async () => {
    const other = await registerUser(server.app, 'eva@otra.es', 'Eva Sanz');
    await invite(server, other, 'juan@otra.es');
    const mine = await colleaguesOf(ana);
    expect(mine.members.map((member) => member.email)).toEqual(['ana@asesoria.es']);
    expect(mine.invitations).toEqual([]);
  });
});

describe('POST /api/colleagues/invitations', () => {
  it('answers the invitation with its expiry and who sent it', async () => {
    const response = await ana.post('/api/colleagues/invitations', { email: 'Luis@Asesoria.es' });
    expect(response.statusCode).toBe(201);
    expect(response.json<Invitation>()).toMatchObject({ email: 'luis@asesoria.es', invitedBy: { name: 'Ana Pérez', email: 'ana@asesoria.es' }, createdAt: clock.toISOString() });
  });

  it('refuses a bad email with 400 and writes nothing', async () => {
    for (const payload of [{ email: 'no-es-un-email' }, {}, { email: 'luis@asesoria.es', role: 'owner' }]) {
      const response = await ana.post('/api/colleagues/invitations', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(server.countRows('colleague_invitations')).toBe(0);
    expect(server.mailedLinks('colleague_invite')).toEqual([]);
  });

  it('refuses a current member and a pending invitation of the own firm with 409', async () => {
    await joinFirm(server, ana, 'luis@asesoria.es');
    await invite(server, ana, 'pepe@asesoria.es');
    const before = server.countRows('colleague_invitations');

    const cases: Array<[string, string]> = [
      ['ana@asesoria.es', 'ALREADY_MEMBER'],
      ['LUIS@asesoria.es', 'ALREADY_MEMBER'],
      ['pepe@asesoria.es', 'ALREADY_INVITED'],
    ];
    for (const [email, code] of cases) {
      const response = await ana.post('/api/colleagues/invitations', { email });
      expect(response.statusCode, email).toBe(409);
      expect(codeOf(response), email).toBe(code);
    }
    expect(server.countRows('colleague_invitations')).toBe(before);
  });

  it("answers an address of another firm's user exactly as an unknown one: 201, same body, mailed, counted in the daily cap", async () => {
    const eva = await registerUser(server.app, 'eva@otra.es', 'Eva Sanz');
    await joinFirm(server, eva, 'juan@otra.es');
    // Removed from the other firm: still that firm's account.
    const juanId = (await colleaguesOf(eva)).members.find((member) => member.email === 'juan@otra.es')?.id ?? '';
    expect((await eva.request({ method: 'DELETE', url: `/api/colleagues/${juanId}` })).statusCode).toBe(204);
    const shape = (response: { statusCode: number; json: <T>() => T }) => {
      const { id, email, ...rest } = response.json<Invitation>();
      return { status: response.statusCode, keys: Object.keys(response.json<object>()).sort(), idLength: id.length, email, rest };
    };

    const mailedBefore = server.mailedLinks('colleague_invite').length;
    const unknown = shape(await ana.post('/api/colleagues/invitations', { email: 'nadie@ejemplo.es' }));
    expect(unknown.status).toBe(201);
    for (const email of ['eva@otra.es', 'juan@otra.es']) {
      expect(shape(await ana.post('/api/colleagues/invitations', { email })), email).toEqual({ ...unknown, email });
    }
    expect(server.mailedLinks('colleague_invite')).toHaveLength(mailedBefore + 3);
    const mailedTo = server.logLines().flatMap((line) => {
      const mail = line.mail as { purpose?: string; to?: string } | undefined;
      return mail?.purpose === 'colleague_invite' ? [mail.to] : [];
    });
    expect(mailedTo.slice(-3)).toEqual(['nadie@ejemplo.es', 'eva@otra.es', 'juan@otra.es']);

    // Every one counts: the cap is reached with the other firm's addresses among them.
    for (let i = 3; i < INVITATIONS_PER_DAY; i++) await invite(server, ana, `persona${i}@asesoria.es`);
    const refused = await ana.post('/api/colleagues/invitations', { email: 'una-mas@asesoria.es' });
    expect(refused.statusCode).toBe(429);
    expect(codeOf(refused)).toBe('TOO_MANY_INVITATIONS');
    const refusedForeign = await ana.post('/api/colleagues/invitations', { email: 'eva@otra.es' });
    expect(refusedForeign.statusCode).toBe(409); // already invited by this firm: its own pending invitation
    expect(codeOf(refusedForeign)).toBe('ALREADY_INVITED');
  });

  it('rate limits the attempts the daily cap does not count (429 RATE_LIMITED)', async () => {
    for (let i = 0; i < INVITE_RATE_LIMIT_PER_MINUTE; i++) {
      const response = await ana.post('/api/colleagues/invitations', { email: 'ana@asesoria.es' });
      expect(response.statusCode, String(i)).toBe(409);
    }
    const limited = await ana.post('/api/colleagues/invitations', { email: 'luis@asesoria.es' });
    expect(limited.statusCode).toBe(429);
    expect(codeOf(limited)).toBe('RATE_LIMITED');
    expect(server.countRows('colleague_invitations')).toBe(0);
  });

  it('lets a new invitation go out once the pending one expired', async () => {
    await invite(server, ana, 'pepe@asesoria.es');
    await moveClock(8 * 24 * 60 * 60 * 1000, ana);
    expect((await ana.post('/api/colleagues/invitations', { email: 'pepe@asesoria.es' })).statusCode).toBe(201);
  });

  it('caps the invitations a firm sends in a day (429), revoked ones included', async () => {
    for (let i = 0; i < INVITATIONS_PER_DAY; i++) {
      const token = await invite(server, ana, `persona${i}@asesoria.es`);
      await ana.request({ method: 'DELETE', url: `/api/colleagues/invitations/${token.split('.')[0]}` });
    }
    const refused = await ana.post('/api/colleagues/invitations', { email: 'una-mas@asesoria.es' });
    expect(refused.statusCode).toBe(429);
    expect(codeOf(refused)).toBe('TOO_MANY_INVITATIONS');
    expect(server.countRows('colleague_invitations')).toBe(INVITATIONS_PER_DAY);

    await moveClock(24 * 60 * 60 * 1000 + 1000, ana);
    expect((await ana.post('/api/colleagues/invitations', { email: 'una-mas@asesoria.es' })).statusCode).toBe(201);
  });
});

describe('what only the owner may do', () => {
  it('refuses a member inviting, revoking or removing with 403', async () => {
    const luis = await joinFirm(server, ana, 'luis@asesoria.es');
    const token = await invite(server, ana, 'pepe@asesoria.es');
    const anaId = (await colleaguesOf(ana)).members[0]?.id ?? '';

    const attempts = [
      await luis.post('/api/colleagues/invitations', { email: 'otro@asesoria.es' }),
      await luis.request({ method: 'DELETE', url: `/api/colleagues/invitations/${token.split('.')[0]}` }),
      await luis.request({ method: 'DELETE', url: `/api/colleagues/${anaId}` }),
    ];
    for (const response of attempts) {
      expect(response.statusCode).toBe(403);
      expect(codeOf(response)).toBe('OWNER_ONLY_COLLEAGUES');
    }
    expect((await colleaguesOf(ana)).invitations).toHaveLength(1);
    expect((await colleaguesOf(ana)).members).toHaveLength(2);
  });

  it("answers 404 for another firm's invitation, and leaves it working", async () => {
    const other = await registerUser(server.app, 'eva@otra.es', 'Eva Sanz');
    const token = await invite(server, other, 'juan@otra.es');
    const response = await ana.request({ method: 'DELETE', url: `/api/colleagues/invitations/${token.split('.')[0]}` });
    expect(response.statusCode).toBe(404);
    expect(codeOf(response)).toBe('INVITATION_NOT_FOUND');
    expect((await server.app.inject({ method: 'GET', url: `/api/invitations/${token}` })).statusCode).toBe(200);
    expect((await ana.request({ method: 'DELETE', url: '/api/colleagues/invitations/x' })).statusCode).toBe(404);
  });
});

describe('when the invitation cannot be mailed', () => {
  it('answers 502 and keeps no invitation whose link nobody received', async () => {
    // Nothing listens on port 1: the SMTP connection is refused at once.
    const unreachable = await startTestServer({ smtp: { url: 'smtp://127.0.0.1:1', from: 'AutoAsesor <no-responder@app.test>' } });
    try {
      const owner = await registerUser(unreachable.app, 'ana@asesoria.es', 'Ana Pérez');
      const response = await owner.post('/api/colleagues/invitations', { email: 'luis@asesoria.es' });
      expect(response.statusCode).toBe(502);
      expect(codeOf(response)).toBe('INVITATION_NOT_SENT');
      expect(unreachable.countRows('colleague_invitations')).toBe(0);
    } finally {
      await unreachable.close();
    }
  });
});
