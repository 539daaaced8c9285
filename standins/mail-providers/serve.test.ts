/**
 * serve.ts as e2e and a person start it: a separate process whose JSON line configures the server and
 * the desktop agent through the same MAIL_* variables they read in production.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, expect, it } from 'vitest';
import { readMailDesktopSettings } from '../../main/mail/settings.ts';
import { mailProvidersFromEnv } from '../../server/modules/mail/providers.ts';

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

it('prints MAIL_* settings that the server and the agent turn into the stand-in endpoints and clients', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./serve.ts', import.meta.url).pathname], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PORT: '0', PUBLIC_URL: 'http://localhost:9999/' } });
  children.push(child);
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`serve.ts exited with ${code} before printing`)));
  });
  const { url, env } = JSON.parse(first) as { url: string; env: Record<string, string> };

  const server = mailProvidersFromEnv(env);
  expect(server.google).toMatchObject({ issuer: `${url}/google`, tokenEndpoint: `${url}/google/token`, revocationEndpoint: `${url}/google/revoke`, apiBaseUrl: `${url}/gmail` });
  expect(server.google.web?.clientSecret).toBeTruthy();
  expect(server.microsoft).toMatchObject({ issuer: `${url}/microsoft/{tenantid}/v2.0`, apiBaseUrl: `${url}/graph`, desktop: { clientId: env.MAIL_MICROSOFT_DESKTOP_CLIENT_ID } });
  expect(readMailDesktopSettings(env).google.authorizationUrl).toBe(`${url}/google/o/oauth2/v2/auth`);

  // The web client's registered redirect is PUBLIC_URL/oauth-response: the consent page opens for it.
  const consent = await fetch(`${server.google.authorizationEndpoint}?${new URLSearchParams({ client_id: env.MAIL_GOOGLE_CLIENT_ID ?? '', redirect_uri: 'http://localhost:9999/oauth-response', response_type: 'code', scope: 'https://www.googleapis.com/auth/gmail.send', state: 's', code_challenge: 'A'.repeat(43), code_challenge_method: 'S256' }).toString()}`);
  expect(consent.status).toBe(200);
  expect(await consent.text()).toContain('AutoAsesor');
  expect(await (await fetch(`${url}/_standin/messages`)).json()).toEqual([]);
});
