import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EMAIL_TAKEN_ELSEWHERE_MESSAGE, INVITATION_TTL_DAYS, type InvitationPreview } from '#shared/api/colleagues.ts';
import type { SessionResponse } from '#shared/api/auth.ts';
import { connectDatabase } from '../../db/connect.ts';
import type { Database } from '../../db/schema.ts';
import { CookieJar, PASSWORD, registerUser, startTestServer, type TestServer } from '../../test/harness.ts';
import { insertFlow, insertRun, memberOf } from '../flowlogs/fixtures.ts';
import { accept, invite } from './test-support.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
let clock = new Date('2026-03-02T09:00:00.000Z');
let server: TestServer;
let db: Kysely<Database>;
let ana: CookieJar;

beforeEach(async () => {
  clock = new Date('2026-03-02T09:00:00.000Z');
  server = await startTestServer({ now: () => clock });
  db = connectDatabase(server.database);
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
});
afterEach(async () => {
  await db.destroy();
  await server.close();
});

const preview = (token: string) => server.app.inject({ method: 'GET', url: `/api/invitations/${token}` });

describe('joining a firm with an invitation', () => {
  it('mails a link whose preview names the firm, and accepting signs the colleague in as a member of the same firm', async () => {
    const token = await invite(server, ana, 'Luis@Asesoria.es');
    const [mail] = server.logLines().filter((line) => (line.mail as { purpose?: string } | undefined)?.purpose === 'colleague_invite');
    expect((mail?.mail as { to: string }).to).toBe('luis@asesoria.es');

    const shown = await preview(token);
    expect(shown.statusCode).toBe(200);
    expect(shown.json<InvitationPreview>()).toEqual({
      firmName: 'Ana Pérez',
      email: 'luis@asesoria.es',
      invitedBy: 'Ana Pérez',
      expiresAt: new Date(clock.getTime() + INVITATION_TTL_DAYS * DAY_MS).toISOString(),
      accountElsewhere: false,
    });

    const luis = new CookieJar(server.app);
    const joined = await accept(server, token, '  Luis Gil ', luis);
    expect(joined.statusCode, joined.body).toBe(201);
    const { userData } = joined.json<SessionResponse>();
    const anaData = (await ana.get('/api/users/me')).json<SessionResponse>().userData;
    expect(userData).toMatchObject({ email: 'luis@asesoria.es', name: 'Luis Gil', role: 'member', emailValidated: true, usedSlans: 0 });
    expect(userData.group.id).toBe(anaData.group.id);
    expect((await luis.get('/api/users/me')).statusCode).toBe(200);
  });

  it("shares the firm's history and subscription usage with the new colleague", async () => {
    const owner = await memberOf(db, 'ana@asesoria.es');
    await insertFlow(db, { id: 'robot-de-prueba', name: 'Validar identificadores' });
    await insertRun(db, { ...owner, flowId: 'robot-de-prueba', createdAt: new Date(clock.getTime() - 60_000).toISOString(), usageUnits: 3, charged: true });

    const luis = new CookieJar(server.app);
    expect((await accept(server, await invite(server, ana, 'luis@asesoria.es'), 'Luis Gil', luis)).statusCode).toBe(201);

    const history = await luis.get('/api/flowlog');
    expect(history.statusCode).toBe(200);
    expect(history.json<{ total: number }>().total).toBe(1);
    const usage = await luis.get('/api/subscriptions/usage');
    expect(usage.statusCode).toBe(200);
    expect(usage.json()).toEqual((await ana.get('/api/subscriptions/usage')).json());
  });

  it('is single use: a second accept is 410 and two accepts at once make one user', async () => {
    const token = await invite(server, ana, 'luis@asesoria.es');
    const [first, second] = await Promise.all([accept(server, token), accept(server, token)]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([201, 410]);
    expect(server.countRows('users')).toBe(2);

    const again = await accept(server, token);
    expect(again.statusCode).toBe(410);
    expect(again.json<{ code: string }>().code).toBe('INVITATION_GONE');
    expect((await preview(token)).statusCode).toBe(410);
  });

  it('expires after INVITATION_TTL_DAYS', async () => {
    const token = await invite(server, ana, 'luis@asesoria.es');
    clock = new Date(clock.getTime() + INVITATION_TTL_DAYS * DAY_MS + 1000);
    expect((await preview(token)).statusCode).toBe(410);
    expect((await accept(server, token)).statusCode).toBe(410);
    expect(server.countRows('users')).toBe(1);
  });

  it('stops working once revoked, and is gone from the pending list', async () => {
    const token = await invite(server, ana, 'luis@asesoria.es');
    const [id] = token.split('.');
    expect((await ana.request({ method: 'DELETE', url: `/api/colleagues/invitations/${id}` })).statusCode).toBe(204);
    expect((await preview(token)).statusCode).toBe(410);
    expect((await accept(server, token)).statusCode).toBe(410);
    expect((await ana.get('/api/colleagues')).json<{ invitations: unknown[] }>().invitations).toEqual([]);
  });

  it('answers 404 for a wrong secret, an unknown id or a malformed token, and writes nothing', async () => {
    const token = await invite(server, ana, 'luis@asesoria.es');
    const [id] = token.split('.');
    for (const bad of [`${id}.${'A'.repeat(43)}`, `${'B'.repeat(22)}.${token.split('.')[1]}`, 'no-es-un-token', `${id}.corto`]) {
      const shown = await preview(bad);
      expect(shown.statusCode, bad).toBe(404);
      expect(shown.json<{ code: string }>().code).toBe('INVITATION_NOT_FOUND');
      expect((await accept(server, bad)).statusCode, bad).toBe(404);
    }
    expect(server.countRows('users')).toBe(1);
    expect((await preview(token)).statusCode).toBe(200); // the real link still works
  });

  it('applies the sign-up password rules and writes nothing for a weak password or no name', async () => {
    const token = await invite(server, ana, 'luis@asesoria.es');
    const url = `/api/invitations/${token}/accept`;
    for (const body of [{ name: 'Luis', password: 'corta' }, { name: 'Luis', password: 'Password1!' }, { name: '   ', password: PASSWORD }]) {
      const response = await server.app.inject({ method: 'POST', url, payload: body });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(server.countRows('users')).toBe(1);
    expect((await accept(server, token)).statusCode).toBe(201);
  });

  it("tells the holder of a link for an address that has an account with another firm, at the link, that it cannot join with it", async () => {
    const eva = await registerUser(server.app, 'eva@otra.es', 'Eva Sanz');
    const token = await invite(server, ana, 'eva@otra.es');

    const shown = await preview(token);
    expect(shown.statusCode).toBe(200);
    expect(shown.json<InvitationPreview>()).toMatchObject({ firmName: 'Ana Pérez', email: 'eva@otra.es', accountElsewhere: true });

    const response = await accept(server, token, 'Eva Sanz');
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'EMAIL_TAKEN_ELSEWHERE', message: EMAIL_TAKEN_ELSEWHERE_MESSAGE });
    // Nothing changed: her account stays in her firm, with her password; the link is not spent.
    expect(server.countRows('users')).toBe(2);
    expect((await eva.get('/api/users/me')).json<SessionResponse>().userData).toMatchObject({ email: 'eva@otra.es', role: 'owner' });
    expect((await new CookieJar(server.app).post('/api/auth/login', { email: 'eva@otra.es', password: PASSWORD })).statusCode).toBe(200);
    expect((await preview(token)).statusCode).toBe(200);
    // The inviter's list shows a pending invitation like any other.
    expect((await ana.get('/api/colleagues')).json<{ invitations: Array<{ email: string }> }>().invitations.map((i) => i.email)).toEqual(['eva@otra.es']);
  });

  it('refuses with 409 and writes nothing when the email signed up elsewhere meanwhile', async () => {
    const token = await invite(server, ana, 'luis@asesoria.es');
    await registerUser(server.app, 'luis@asesoria.es', 'Luis Gil');
    const response = await accept(server, token);
    expect(response.statusCode).toBe(409);
    expect(response.json<{ code: string }>().code).toBe('EMAIL_TAKEN_ELSEWHERE');
    expect(server.countRows('users')).toBe(2);
    expect((await preview(token)).statusCode).toBe(200); // not spent
  });
});
