import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BridgeFailure } from '../bridge/failure.ts';
import { authorizationUrl, expectedIssuer } from './authorize.ts';
import { createHostMailDesktop } from './host.ts';
import { agentUrlOpener } from './opener.ts';

const GOOGLE = { authorizationUrl: 'https://accounts.example/auth?hd=asesoria.example', issuer: 'https://accounts.example', clientId: 'desktop-google' };
const REQUEST = { redirectUri: 'http://127.0.0.1:5000/oauth/callback', state: 'st', codeChallenge: 'ch' };

describe('authorizationUrl', () => {
  it('keeps the configured query, and the caller chooses Google\'s prompt', () => {
    const url = authorizationUrl({ provider: 'google', scope: 'sendemail', prompt: 'select_account' }, GOOGLE, REQUEST);
    expect(url.searchParams.get('hd')).toBe('asesoria.example');
    expect(url.searchParams.get('prompt')).toBe('select_account');
    expect(url.searchParams.get('access_type')).toBe('offline');
    expect(url.searchParams.has('login_hint')).toBe(false);
  });

  it('only a configured http stand-in is opened over http', () => {
    expect(authorizationUrl({ provider: 'google', scope: 'sendemail' }, { ...GOOGLE, authorizationUrl: 'http://127.0.0.1:9510/auth' }, REQUEST).protocol).toBe('http:');
    expect(() => authorizationUrl({ provider: 'google', scope: 'sendemail' }, { ...GOOGLE, authorizationUrl: 'javascript:alert(1)' }, REQUEST)).toThrow(BridgeFailure);
  });
});

describe('expectedIssuer', () => {
  const TEMPLATE = 'https://login.microsoftonline.com/{tenantid}/v2.0';
  it("accepts any tenant of Microsoft's template, and nothing else", () => {
    const tenant = 'https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0';
    expect(expectedIssuer(TEMPLATE, tenant)).toBe(tenant);
    expect(expectedIssuer(TEMPLATE, 'https://login.microsoftonline.com/evil/v2.0')).toBe(TEMPLATE);
    expect(expectedIssuer(TEMPLATE, 'https://evil.example/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0')).toBe(TEMPLATE);
    expect(expectedIssuer(TEMPLATE, null)).toBe(TEMPLATE);
    expect(expectedIssuer('https://accounts.google.com', 'https://evil.example')).toBe('https://accounts.google.com');
  });
});

const folders: string[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

describe('the agent\'s round, as the e2e tests play it', () => {
  it('reads the address from AGENT_URL_OPENER_FILE, answers like the browser, and nothing secret is written to the console', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'autoasesor-mail-'));
    folders.push(folder);
    const env = { AGENT_URL_OPENER_FILE: join(folder, 'urls.txt'), MAIL_MICROSOFT_AUTHORIZATION_URL: 'http://127.0.0.1:1/authorize', MAIL_MICROSOFT_DESKTOP_CLIENT_ID: 'desktop-ms' };
    const printed: unknown[] = [];
    for (const method of ['log', 'error', 'warn', 'info', 'debug'] as const) vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void printed.push(...args));

    const mail = createHostMailDesktop({ env, openUrl: agentUrlOpener(env) });
    const pending = mail.connect({ provider: 'microsoft', scope: 'sendemail' });
    let line = '';
    while (!line) {
      line = (await readFile(env.AGENT_URL_OPENER_FILE, 'utf8').catch(() => '')).trim();
      if (!line) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const url = new URL(line);
    expect(url.origin + url.pathname).toBe('http://127.0.0.1:1/authorize');
    const redirect = new URL(url.searchParams.get('redirect_uri')!);
    redirect.searchParams.set('code', 'M.secret-code');
    redirect.searchParams.set('state', url.searchParams.get('state')!);
    expect((await fetch(redirect)).status).toBe(200);

    const result = await pending;
    expect(result).toMatchObject({ provider: 'microsoft', code: 'M.secret-code', redirectUri: url.searchParams.get('redirect_uri') });
    const everything = JSON.stringify(printed);
    expect(everything).not.toContain('M.secret-code');
    expect(everything).not.toContain(result.codeVerifier);
  });
});
