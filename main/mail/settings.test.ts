import { describe, expect, it } from 'vitest';
import { MAIL_DESKTOP_DEFAULTS, readMailDesktopSettings } from './settings.ts';

describe('readMailDesktopSettings', () => {
  it('the real providers by default, and no provider offered without its desktop client id', () => {
    expect(readMailDesktopSettings({})).toEqual({
      google: { authorizationUrl: 'https://accounts.google.com/o/oauth2/v2/auth', issuer: 'https://accounts.google.com', clientId: null },
      microsoft: { ...MAIL_DESKTOP_DEFAULTS.microsoft, clientId: null },
    });
    expect(MAIL_DESKTOP_DEFAULTS.microsoft.authorizationUrl).toBe('https://login.microsoftonline.com/common/oauth2/v2.0/authorize');
  });

  it('the same variables the server reads: a stand-in over http, its issuer and the client ids', () => {
    const settings = readMailDesktopSettings({
      MAIL_GOOGLE_AUTHORIZATION_URL: 'http://127.0.0.1:9510/o/oauth2/v2/auth',
      MAIL_GOOGLE_ISSUER: 'http://127.0.0.1:9510',
      MAIL_GOOGLE_DESKTOP_CLIENT_ID: ' desktop.apps.googleusercontent.com ',
      MAIL_MICROSOFT_DESKTOP_CLIENT_ID: '00000000-aaaa',
      MAIL_MICROSOFT_ISSUER: '',
    });
    expect(settings.google).toEqual({ authorizationUrl: 'http://127.0.0.1:9510/o/oauth2/v2/auth', issuer: 'http://127.0.0.1:9510', clientId: 'desktop.apps.googleusercontent.com' });
    expect(settings.microsoft).toEqual({ ...MAIL_DESKTOP_DEFAULTS.microsoft, clientId: '00000000-aaaa' });
  });

  it('an address that is not http(s) is refused naming its variable', () => {
    expect(() => readMailDesktopSettings({ MAIL_MICROSOFT_AUTHORIZATION_URL: 'file:///etc/passwd' })).toThrow(/MAIL_MICROSOFT_AUTHORIZATION_URL debe ser una dirección https/);
    expect(() => readMailDesktopSettings({ MAIL_GOOGLE_AUTHORIZATION_URL: 'no es una url' })).toThrow(/MAIL_GOOGLE_AUTHORIZATION_URL no es una dirección válida/);
  });
});
