import { expect } from 'vitest';
import { INVITATION_PAGE } from '#shared/api/colleagues.ts';
import { CookieJar, PASSWORD, type TestServer } from '../../test/harness.ts';

/** Test support for the colleagues suites: inviting through the API and joining with the mailed link. */

/** The token of the newest invitation link the server mailed. */
export function lastInvitationToken(server: TestServer): string {
  const link = server.mailedLinks('colleague_invite').at(-1) ?? '';
  const prefix = `http://app.test${INVITATION_PAGE}/`;
  expect(link.startsWith(prefix)).toBe(true);
  return link.slice(prefix.length);
}

/** The owner invites `email`; returns the mailed link's token. */
export async function invite(server: TestServer, owner: CookieJar, email: string): Promise<string> {
  const response = await owner.post('/api/colleagues/invitations', { email });
  expect(response.statusCode, response.body).toBe(201);
  return lastInvitationToken(server);
}

export function accept(server: TestServer, token: string, name = 'Luis Gil', jar = new CookieJar(server.app)) {
  return jar.post(`/api/invitations/${token}/accept`, { name, password: PASSWORD });
}

/** Invites and joins: the new colleague's signed-in jar. */
export async function joinFirm(server: TestServer, owner: CookieJar, email: string, name = 'Luis Gil'): Promise<CookieJar> {
  const jar = new CookieJar(server.app);
  const response = await accept(server, await invite(server, owner, email), name, jar);
  expect(response.statusCode, response.body).toBe(201);
  return jar;
}
