import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../../env.ts';
import { mailProvidersFromEnv } from './providers.ts';

describe('mailProvidersFromEnv', () => {
  it('defaults to the real endpoints and offers no client until its id is set', () => {
    const config = mailProvidersFromEnv({});
    expect(config.google).toEqual({
      issuer: 'https://accounts.google.com',
      authorizationEndpoint: 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenEndpoint: 'https://oauth2.googleapis.com/token',
      revocationEndpoint: 'https://oauth2.googleapis.com/revoke',
      apiBaseUrl: 'https://gmail.googleapis.com',
      web: null,
      desktop: null,
    });
    expect(config.microsoft).toMatchObject({
      issuer: 'https://login.microsoftonline.com/{tenantid}/v2.0',
      tokenEndpoint: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
      revocationEndpoint: null,
      apiBaseUrl: 'https://graph.microsoft.com',
      web: null,
      desktop: null,
    });
  });

  it('reads the stand-ins and the clients from MAIL_* variables', () => {
    const config = mailProvidersFromEnv({
      MAIL_GOOGLE_TOKEN_URL: 'http://127.0.0.1:9000/google/token/',
      MAIL_GOOGLE_CLIENT_ID: 'web-id',
      MAIL_GOOGLE_CLIENT_SECRET: 'web-secret',
      MAIL_GOOGLE_DESKTOP_CLIENT_ID: 'desk-id',
      MAIL_MICROSOFT_DESKTOP_CLIENT_ID: 'ms-desk',
      MAIL_MICROSOFT_ISSUER: 'http://127.0.0.1:9000/{tenantid}/v2.0',
    });
    expect(config.google.tokenEndpoint).toBe('http://127.0.0.1:9000/google/token');
    expect(config.google.web).toEqual({ clientId: 'web-id', clientSecret: 'web-secret' });
    expect(config.google.desktop).toEqual({ clientId: 'desk-id' });
    expect(config.microsoft.desktop).toEqual({ clientId: 'ms-desk' });
    expect(config.microsoft.web).toBeNull();
    expect(config.microsoft.issuer).toBe('http://127.0.0.1:9000/{tenantid}/v2.0');
  });

  it('stops on an endpoint that is not an http(s) address, naming the variable', () => {
    expect(() => mailProvidersFromEnv({ MAIL_MICROSOFT_TOKEN_URL: 'ftp://x' })).toThrow(/MAIL_MICROSOFT_TOKEN_URL no válido/);
    expect(() => mailProvidersFromEnv({ MAIL_GOOGLE_API_URL: 'gmail' })).toThrow(/MAIL_GOOGLE_API_URL no válido/);
  });

  it('is what configFromEnv gives the server, with the secrets key or its file beside the data', () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    const { server } = configFromEnv({ DATA_DIR: '/srv/autoasesor', SECRETS_KEY: ` ${key} `, MAIL_MICROSOFT_CLIENT_ID: 'ms-web' });
    expect(server.secrets).toEqual({ key, keyFile: '/srv/autoasesor/secrets.key' });
    expect(server.mail?.microsoft.web).toEqual({ clientId: 'ms-web' });
    expect(server.mail?.google.tokenEndpoint).toBe('https://oauth2.googleapis.com/token');
    expect(configFromEnv({}).server.secrets).toEqual({ keyFile: 'data/secrets.key' });
  });
});
