import { describe, expect, it } from 'vitest';
import { redirectAllowed } from './authorize.ts';

describe('redirectAllowed', () => {
  const desktop = { clientId: 'd', kind: 'desktop' as const };
  const web = { clientId: 'w', kind: 'web' as const, redirectUris: ['https://app.test/oauth-response'] };

  it('desktop clients: loopback IP literals over http on any port (RFC 8252 §7.3), not localhost nor https', () => {
    expect(redirectAllowed(desktop, 'http://127.0.0.1:1/')).toBe(true);
    expect(redirectAllowed(desktop, 'http://127.0.0.1:65000/oauth/callback?x=1')).toBe(true);
    expect(redirectAllowed(desktop, 'http://[::1]:8080/cb')).toBe(true);
    expect(redirectAllowed(desktop, 'http://localhost:8080/cb')).toBe(false);
    expect(redirectAllowed(desktop, 'https://127.0.0.1:8080/cb')).toBe(false);
    expect(redirectAllowed(desktop, 'http://127.0.0.1:8080/cb#frag')).toBe(false);
    expect(redirectAllowed(desktop, 'http://user@127.0.0.1:8080/cb')).toBe(false);
    expect(redirectAllowed(desktop, 'no es una url')).toBe(false);
  });

  it('web clients: only an exact registered URI', () => {
    expect(redirectAllowed(web, 'https://app.test/oauth-response')).toBe(true);
    expect(redirectAllowed(web, 'https://app.test/oauth-response/')).toBe(false);
    expect(redirectAllowed(web, 'http://127.0.0.1:8080/oauth-response')).toBe(false);
  });
});
