import { describe, expect, it } from 'vitest';
import { GOOGLE_SIGNIN_DEFAULTS, googleSignInFromEnv } from './google-config.ts';

describe('Sign in with Google from the environment', () => {
  it('is off without a client id', () => {
    expect(googleSignInFromEnv({})).toBeNull();
    expect(googleSignInFromEnv({ GOOGLE_SIGNIN_CLIENT_ID: '  ', GOOGLE_SIGNIN_CLIENT_SECRET: 's' })).toBeNull();
  });

  it("uses Google's endpoints unless told otherwise", () => {
    expect(googleSignInFromEnv({ GOOGLE_SIGNIN_CLIENT_ID: 'id.apps.googleusercontent.com', GOOGLE_SIGNIN_CLIENT_SECRET: 'secreto' })).toEqual({
      clientId: 'id.apps.googleusercontent.com', clientSecret: 'secreto', ...GOOGLE_SIGNIN_DEFAULTS,
    });
    expect(googleSignInFromEnv({ GOOGLE_SIGNIN_CLIENT_ID: 'id', GOOGLE_SIGNIN_ISSUER: 'http://127.0.0.1:9000/', GOOGLE_SIGNIN_TOKEN_URL: 'http://127.0.0.1:9000/token' })).toMatchObject({
      issuer: 'http://127.0.0.1:9000', tokenEndpoint: 'http://127.0.0.1:9000/token', authorizationEndpoint: GOOGLE_SIGNIN_DEFAULTS.authorizationEndpoint,
    });
  });

  it('stops the server at start on an endpoint that is not an http(s) address', () => {
    expect(() => googleSignInFromEnv({ GOOGLE_SIGNIN_CLIENT_ID: 'id', GOOGLE_SIGNIN_JWKS_URL: 'ftp://x' })).toThrow(/GOOGLE_SIGNIN_JWKS_URL no válido/);
    expect(() => googleSignInFromEnv({ GOOGLE_SIGNIN_CLIENT_ID: 'id', GOOGLE_SIGNIN_ISSUER: 'no es una url' })).toThrow(/GOOGLE_SIGNIN_ISSUER/);
  });
});
