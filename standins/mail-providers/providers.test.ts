import { createHash, createPublicKey, randomBytes, verify, type JsonWebKey } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailProviders, type MailProviders } from './providers.ts';

const GMAIL_SEND = 'https://www.googleapis.com/auth/gmail.send';
const google = {
  desktop: { clientId: 'google-desktop', clientSecret: 'no-confidencial', kind: 'desktop' as const },
  web: { clientId: 'google-web', clientSecret: 'secreto-web', redirectUris: ['http://app.test/oauth-response'], kind: 'web' as const },
};
const microsoftDesktop = { clientId: 'ms-desktop', kind: 'desktop' as const };
const TENANT = '11111111-2222-3333-4444-555555555555';

let providers: MailProviders;
beforeAll(async () => {
  providers = await startMailProviders({
    google: { clients: [google.desktop, google.web], account: { email: 'asesoria@gmail.test', name: 'Asesoría Pérez' } },
    microsoft: { clients: [microsoftDesktop], account: { email: 'asesoria@outlook.test', name: 'Asesoría Pérez' }, tenantId: TENANT },
  });
});
afterAll(() => providers.close());

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};
const unescape = (text: string) => text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** Opens the consent page like a browser and submits it: what the redirect says. */
async function consent(endpoint: string, params: Record<string, string>, decision: 'allow' | 'deny' = 'allow', email?: string) {
  const page = await fetch(`${endpoint}?${new URLSearchParams(params).toString()}`, { redirect: 'manual' });
  const html = await page.text();
  expect(page.status, html).toBe(200);
  const form = new URLSearchParams();
  for (const match of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) form.set(unescape(match[1] ?? ''), unescape(match[2] ?? ''));
  form.set('email', email ?? unescape(/id="email"[^>]*value="([^"]*)"/.exec(html)?.[1] ?? ''));
  form.set('decision', decision);
  const action = new URL(unescape(/<form method="post" action="([^"]*)"/.exec(html)?.[1] ?? ''), endpoint);
  const answer = await fetch(action, { method: 'POST', body: form, redirect: 'manual' });
  expect(answer.status).toBe(302);
  return { html, location: new URL(answer.headers.get('location') ?? '') };
}

async function token(endpoint: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await fetch(endpoint, { method: 'POST', body: new URLSearchParams(form), headers });
  return { status: response.status, body: (await response.json()) as Record<string, string | number | undefined> };
}

/** A Google desktop link: authorization code with PKCE through a loopback redirect. */
async function linkGoogle(redirectUri = 'http://127.0.0.1:53123/callback') {
  const { verifier, challenge } = pkce();
  const { location } = await consent(providers.google.authorizationEndpoint, { client_id: google.desktop.clientId, redirect_uri: redirectUri, response_type: 'code', scope: `openid email ${GMAIL_SEND}`, state: 's1', code_challenge: challenge, code_challenge_method: 'S256', nonce: 'n-1' });
  const code = location.searchParams.get('code') ?? '';
  const exchange = () => token(providers.google.tokenEndpoint, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier, client_id: google.desktop.clientId, client_secret: 'no-confidencial' });
  return { code, location, verifier, exchange };
}

async function linkMicrosoft(scope = 'openid profile offline_access Mail.Send') {
  const { verifier, challenge } = pkce();
  const redirectUri = 'http://127.0.0.1:61000/';
  const { location, html } = await consent(providers.microsoft.authorizationEndpoint, { client_id: microsoftDesktop.clientId, redirect_uri: redirectUri, response_type: 'code', scope, state: 'm1', code_challenge: challenge, code_challenge_method: 'S256' });
  const tokens = await token(providers.microsoft.tokenEndpoint, { grant_type: 'authorization_code', code: location.searchParams.get('code') ?? '', redirect_uri: redirectUri, code_verifier: verifier, client_id: microsoftDesktop.clientId });
  return { html, tokens };
}

async function verifiedClaims(jwt: string, jwksUri: string): Promise<Record<string, unknown>> {
  const [header = '', payload = '', signature = ''] = jwt.split('.');
  const { keys } = (await (await fetch(jwksUri)).json()) as { keys: (JsonWebKey & { kid: string })[] };
  const { kid } = JSON.parse(Buffer.from(header, 'base64url').toString()) as { kid: string };
  const key = createPublicKey({ key: keys.find((candidate) => candidate.kid === kid) ?? {}, format: 'jwk' });
  expect(verify('sha256', Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, 'base64url'))).toBe(true);
  return JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
}

const mime = (subject: string, attachment: Buffer, to = 'cliente@empresa.test') =>
  new MailComposer({ from: '"Asesoría Pérez" <asesoria@gmail.test>', to, replyTo: 'oficina@asesoria.test', subject, text: 'Adjuntamos el justificante.', attachments: [{ filename: 'justificante año.pdf', content: attachment, contentType: 'application/pdf' }] })
    .compile()
    .build();

const gmailSend = (accessToken: string, raw: Buffer) =>
  fetch(`${providers.google.apiBaseUrl}/gmail/v1/users/me/messages/send`, { method: 'POST', headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ raw: raw.toString('base64url') }) });

describe('OAuth authorization servers', () => {
  it('Google desktop: any loopback port, consent in Spanish, PKCE exchange, signed id_token, refresh keeps the token', async () => {
    const link = await linkGoogle('http://127.0.0.1:49999/oauth/cb');
    expect(link.location.origin + link.location.pathname).toBe('http://127.0.0.1:49999/oauth/cb');
    expect(link.location.searchParams.get('state')).toBe('s1');
    const { status, body } = await link.exchange();
    expect(status).toBe(200);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: `openid email ${GMAIL_SEND}` });
    const claims = await verifiedClaims(String(body.id_token), `${providers.url}/google/oauth2/v3/certs`);
    expect(claims).toMatchObject({ iss: providers.google.issuer, aud: google.desktop.clientId, email: 'asesoria@gmail.test', nonce: 'n-1' });

    const refreshed = await token(providers.google.tokenEndpoint, { grant_type: 'refresh_token', refresh_token: String(body.refresh_token), client_id: google.desktop.clientId, client_secret: 'no-confidencial' });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).toBeUndefined();
    expect(refreshed.body.access_token).not.toBe(body.access_token);
    expect(providers.refreshCount('asesoria@gmail.test')).toBe(1);
  });

  it('Google web: exact redirect only, HTTP Basic client auth, wrong secret refused', async () => {
    const { verifier, challenge } = pkce();
    const params = { client_id: google.web.clientId, response_type: 'code', scope: GMAIL_SEND, state: 'w', code_challenge: challenge, code_challenge_method: 'S256', access_type: 'offline', login_hint: 'otra@gmail.test' };
    const other = await fetch(`${providers.google.authorizationEndpoint}?${new URLSearchParams({ ...params, redirect_uri: 'http://127.0.0.1:5000/oauth-response' }).toString()}`, { redirect: 'manual' });
    expect(other.status).toBe(400);
    expect(other.headers.get('location')).toBeNull();
    expect(await other.text()).toContain('no está registrada');

    const { location, html } = await consent(providers.google.authorizationEndpoint, { ...params, redirect_uri: 'http://app.test/oauth-response' });
    expect(html).toContain('<h1>Google (simulado)</h1>');
    expect(html).toContain('value="otra@gmail.test"');
    const form = { grant_type: 'authorization_code', code: location.searchParams.get('code') ?? '', redirect_uri: 'http://app.test/oauth-response', code_verifier: verifier };
    expect((await token(providers.google.tokenEndpoint, form, { authorization: `Basic ${Buffer.from('google-web:mal').toString('base64')}` })).body.error).toBe('invalid_client');
  });

  it('refuses a wrong verifier and a replayed code, revoking what the code issued', async () => {
    const wrong = await linkGoogle();
    const refused = await token(providers.google.tokenEndpoint, { grant_type: 'authorization_code', code: wrong.code, redirect_uri: 'http://127.0.0.1:53123/callback', code_verifier: pkce().verifier, client_id: google.desktop.clientId, client_secret: 'no-confidencial' });
    expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    const link = await linkGoogle();
    const first = await link.exchange();
    expect(first.status).toBe(200);
    expect((await link.exchange()).body.error).toBe('invalid_grant');
    expect((await gmailSend(String(first.body.access_token), await mime('x', Buffer.from('x')))).status).toBe(401);
  });

  it('refuses plain or absent PKCE, and a missing state, with an error page and no redirect', async () => {
    const base = { client_id: google.desktop.clientId, redirect_uri: 'http://127.0.0.1:1234/cb', response_type: 'code', scope: GMAIL_SEND, state: 'x' };
    for (const params of [{ ...base, code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }, base, { ...base, state: '', code_challenge: pkce().challenge, code_challenge_method: 'S256' }]) {
      const page = await fetch(`${providers.google.authorizationEndpoint}?${new URLSearchParams(params).toString()}`, { redirect: 'manual' });
      expect(page.status).toBe(400);
      expect(page.headers.get('location')).toBeNull();
      expect(await page.text()).toContain('role="alert"');
    }
  });

  it('Cancelar answers access_denied with the state; a missing send scope answers invalid_scope', async () => {
    const { challenge } = pkce();
    const params = { client_id: microsoftDesktop.clientId, redirect_uri: 'http://127.0.0.1:7000/', response_type: 'code', scope: 'openid offline_access Mail.Send', state: 'st', code_challenge: challenge, code_challenge_method: 'S256' };
    const { location } = await consent(providers.microsoft.authorizationEndpoint, params, 'deny');
    expect(Object.fromEntries(location.searchParams)).toMatchObject({ error: 'access_denied', state: 'st' });
    const noSend = await fetch(`${providers.microsoft.authorizationEndpoint}?${new URLSearchParams({ ...params, scope: 'openid offline_access' }).toString()}`, { redirect: 'manual' });
    expect(new URL(noSend.headers.get('location') ?? '').searchParams.get('error')).toBe('invalid_scope');
  });

  it('Microsoft: per-tenant id_token, refresh token rotated on every use, revoke answers invalid_grant', async () => {
    const { html, tokens } = await linkMicrosoft();
    expect(html).toContain('<h1>Microsoft (simulado)</h1>');
    expect(tokens.status).toBe(200);
    const claims = await verifiedClaims(String(tokens.body.id_token), `${providers.url}/microsoft/common/discovery/v2.0/keys`);
    expect(claims).toMatchObject({ iss: `${providers.url}/microsoft/${TENANT}/v2.0`, tid: TENANT, preferred_username: 'asesoria@outlook.test', name: 'Asesoría Pérez' });
    expect(providers.microsoft.issuer).toBe(claims.iss);

    const refresh = (refreshToken: unknown) => token(providers.microsoft.tokenEndpoint, { grant_type: 'refresh_token', refresh_token: String(refreshToken), client_id: microsoftDesktop.clientId });
    const second = await refresh(tokens.body.refresh_token);
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(tokens.body.refresh_token);
    expect(await refresh(tokens.body.refresh_token)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const third = await refresh(second.body.refresh_token);
    expect(third.status).toBe(200);

    await fetch(`${providers.url}/_standin/revoke`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'asesoria@outlook.test' }) });
    expect(await refresh(third.body.refresh_token)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('Microsoft gives no refresh token without offline_access', async () => {
    const { tokens } = await linkMicrosoft('openid Mail.Send');
    expect(tokens.status).toBe(200);
    expect(tokens.body.refresh_token).toBeUndefined();
  });
});

describe('Gmail and Graph send', () => {
  it('Gmail JSON and upload decode a UTF-8 subject and an attachment; JSON over 5 MB is 413', async () => {
    const accessToken = String((await (await linkGoogle()).exchange()).body.access_token);
    const small = randomBytes(2048);
    const json = await gmailSend(accessToken, await mime('Resultado de Declaración — año 2026 ✓', small));
    expect(json.status).toBe(200);
    const { id } = (await json.json()) as { id: string };

    const big = randomBytes(6 * 1024 * 1024);
    const bigMime = await mime('Justificante grande ñ', big);
    expect((await gmailSend(accessToken, bigMime)).status).toBe(413);
    const upload = await fetch(`${providers.google.apiBaseUrl}/upload/gmail/v1/users/me/messages/send?uploadType=media`, { method: 'POST', headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'message/rfc822' }, body: bigMime });
    expect(upload.status).toBe(200);

    const stored = (await (await fetch(`${providers.url}/_standin/messages`)).json()) as ReturnType<MailProviders['messages']>;
    const sent = stored.find((message) => message.id === id);
    expect(sent).toMatchObject({ provider: 'google', via: 'gmail-json', account: 'asesoria@gmail.test', from: 'asesoria@gmail.test', replyTo: 'oficina@asesoria.test', to: ['cliente@empresa.test'], subject: 'Resultado de Declaración — año 2026 ✓' });
    expect(sent?.attachments).toEqual([{ filename: 'justificante año.pdf', contentType: 'application/pdf', size: 2048, sha256: createHash('sha256').update(small).digest('hex') }]);
    expect(stored.at(-1)).toMatchObject({ via: 'gmail-upload', subject: 'Justificante grande ñ', attachments: [{ size: big.length, sha256: createHash('sha256').update(big).digest('hex') }] });
  });

  it('Graph JSON and MIME answer 202 and are stored; bad base64 is 400', async () => {
    const accessToken = String((await linkMicrosoft()).tokens.body.access_token);
    const content = randomBytes(1000);
    const send = (body: string, contentType: string) => fetch(`${providers.microsoft.apiBaseUrl}/v1.0/me/sendMail`, { method: 'POST', headers: { authorization: `Bearer ${accessToken}`, 'content-type': contentType }, body });
    const message = { subject: 'Notificación ñ', body: { contentType: 'Text', content: 'Hola' }, toRecipients: [{ emailAddress: { address: 'cliente@empresa.test' } }], replyTo: [{ emailAddress: { address: 'oficina@asesoria.test' } }], attachments: [{ '@odata.type': '#microsoft.graph.fileAttachment', name: 'modelo.pdf', contentType: 'application/pdf', contentBytes: content.toString('base64') }] };
    const json = await send(JSON.stringify({ message, saveToSentItems: true }), 'application/json');
    expect(json.status).toBe(202);
    expect(await json.text()).toBe('');
    expect(providers.messages().at(-1)).toMatchObject({ provider: 'microsoft', via: 'graph-json', account: 'asesoria@outlook.test', from: 'asesoria@outlook.test', to: ['cliente@empresa.test'], replyTo: 'oficina@asesoria.test', subject: 'Notificación ñ', text: 'Hola', attachments: [{ filename: 'modelo.pdf', size: 1000, sha256: createHash('sha256').update(content).digest('hex') }] });

    expect((await send((await mime('Por MIME', content)).toString('base64'), 'text/plain')).status).toBe(202);
    expect(providers.messages().at(-1)).toMatchObject({ via: 'graph-mime', subject: 'Por MIME' });
    expect((await send('esto no es base64!', 'text/plain')).status).toBe(400);
  });

  it('401 without a token, with an expired one and with another provider\'s; failNext answers 429 with Retry-After', async () => {
    const accessToken = String((await (await linkGoogle()).exchange()).body.access_token);
    const raw = await mime('Hola', Buffer.from('x'));
    const noToken = await fetch(`${providers.google.apiBaseUrl}/gmail/v1/users/me/messages/send`, { method: 'POST', body: JSON.stringify({ raw: raw.toString('base64url') }) });
    expect(noToken.status).toBe(401);
    const graphWithGoogle = await fetch(`${providers.microsoft.apiBaseUrl}/v1.0/me/sendMail`, { method: 'POST', headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' }, body: '{}' });
    expect(graphWithGoogle.status).toBe(401);

    await fetch(`${providers.url}/_standin/fail`, { method: 'POST', body: JSON.stringify({ api: 'gmail', status: 429, times: 2, retryAfterSeconds: 7 }) });
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const limited = await gmailSend(accessToken, raw);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('7');
    }
    expect((await gmailSend(accessToken, raw)).status).toBe(200);

    providers.failNext('google-token', 503);
    expect((await (await linkGoogle()).exchange()).status).toBe(503);

    providers.expireAccessTokens();
    expect((await gmailSend(accessToken, raw)).status).toBe(401);
  });
});
